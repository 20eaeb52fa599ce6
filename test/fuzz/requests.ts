import fc from 'fast-check';
import type { Body } from '../support/http.js';
import { bodySchemaOf, pathWith, type Route } from '../support/routes.js';
import {
  EXTREME_NUMBER_LITERALS,
  MALFORMED_JSON,
  MALFORMED_UUIDS,
  MASS_ASSIGNMENT,
  NON_JSON_CONTENT_TYPES,
  ODD_JSON_CONTENT_TYPES,
  ODD_UUIDS,
  RAW_SEGMENTS,
  REFUSED_TEXT,
} from './hostile-values.js';
import { jsonText, type Path, RawJson, withAt, withField, withoutAt } from './json-text.js';
import { boundsOf, type Schema, schemaOf, typesOf } from './schema.js';
import { type Hints, storableText, validValue } from './valid-values.js';
import { violation } from './violations.js';

/**
 * One route's requests as a fast-check arbitrary, derived from its OpenAPI operation: a valid
 * baseline (path ids the caller owns, a body its schema accepts) and the hostile kinds of issue 7
 * built on it. Each request says whether it must be refused, and why; that is decided from the
 * request as sent (`violation`), never from which kind made it.
 */

export interface Target {
  readonly route: Route;
  /** The credential of the route's API; none for a public route. */
  readonly token: string | undefined;
  readonly bodyLimit: number;
  /** By path parameter: a resource the caller owns, and one of another tenant. */
  readonly ownIds: Readonly<Record<string, string>>;
  readonly foreignIds: Readonly<Record<string, string>>;
  /** The route waits for an agent when its ids name a resource: fuzzed with ids that name none. */
  readonly waitsForAgent: boolean;
  readonly hints: Hints;
}

export interface FuzzRequest {
  readonly kind: string;
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Why the request must be refused, when it must. */
  readonly mustRefuse: string | undefined;
  /** Fields set that the caller must not set (see MASS_ASSIGNMENT). */
  readonly massAssigned: readonly string[];
}

interface Part<T> {
  readonly label: string | undefined;
  readonly value: T;
  readonly mustRefuse?: string | undefined;
}

const part = <T>(label: string | undefined, value: T, mustRefuse?: string): Part<T> => ({
  label,
  value,
  mustRefuse,
});

export function requestsFor(target: Target): fc.Arbitrary<FuzzRequest> {
  const { route } = target;
  const takesBody = !['GET', 'HEAD'].includes(route.method);
  const schema = bodySchemaOf(route.documented);
  const body = !takesBody
    ? fc.constant(part<BodyPart>(undefined, { text: undefined, contentType: undefined, massAssigned: [] }))
    : schema
      ? bodiesOf(schema, target)
      : junkBodies;
  return fc
    .tuple(pathsOf(target), queriesOf(target), body, headersOf())
    .map(([path, query, sent, headers]) => {
      const label = [path.label, query.label, sent.label].filter(Boolean).join(' + ') || 'valid';
      const request: FuzzRequest = {
        kind: label,
        method: route.method,
        url: `${path.value}${query.value}`,
        headers: {
          ...headers,
          ...(target.token ? { Authorization: `Bearer ${target.token}` } : {}),
          ...(sent.value.contentType === undefined ? {} : { 'Content-Type': sent.value.contentType }),
        },
        body: sent.value.text,
        mustRefuse: path.mustRefuse ?? query.mustRefuse ?? sent.mustRefuse,
        massAssigned: sent.value.massAssigned,
      };
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
    });
}

/** Whether the route documents a body to write. */
export const takesJsonBody = (route: Route) =>
  !['GET', 'HEAD'].includes(route.method) && bodySchemaOf(route.documented) !== undefined;

/**
 * The one request that sends every field the caller must not set (MASS_ASSIGNMENT, less those the
 * route documents) beside a valid body, at the caller's own resource: a route must refuse it, or
 * take none of them. Undefined for a route without a JSON body. The same for a seed.
 */
export function massAssignmentRequest(target: Target, seed: number): FuzzRequest | undefined {
  const { route } = target;
  const schema = bodySchemaOf(route.documented);
  if (!schema || !takesJsonBody(route)) return undefined;
  const doc = route.documented!.doc;
  const [baseline] = fc.sample(validValue(schema, doc, target.hints), { numRuns: 1, seed });
  const documented = new Set(Object.keys(schemaOf(schema, doc).properties ?? {}));
  const names = Object.keys(MASS_ASSIGNMENT).filter((name) => !documented.has(name));
  const object: Record<string, unknown> =
    baseline !== null && typeof baseline === 'object' && !Array.isArray(baseline) ? { ...baseline } : {};
  for (const name of names) withField(object, name, MASS_ASSIGNMENT[name]);
  const sent = json(object, names);
  const own = (param: string) => target.ownIds[param] ?? '9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d';
  const request: FuzzRequest = {
    kind: 'mass assignment, every field',
    method: route.method,
    url: pathWith(route, (param) => encodeSegment(own(param))),
    headers: {
      ...(target.token ? { Authorization: `Bearer ${target.token}` } : {}),
      'Content-Type': JSON_TYPE,
    },
    body: sent.text,
    mustRefuse: undefined,
    massAssigned: names,
  };
  return request;
}

/** A request as a failure report shows it: bodies of a megabyte are cut. */
export function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined ? '' : `\n  body (${request.body.length} chars): ${clip(request.body)}`;
  const type = request.headers['Content-Type'];
  return `${request.method} ${clip(request.url)} [${request.kind}]${type === undefined ? '' : ` Content-Type: ${JSON.stringify(type)}`}${body}`;
}

export const clip = (text: string, max = 300) =>
  text.length <= max
    ? JSON.stringify(text)
    : `${JSON.stringify(text.slice(0, max))}… (${text.length - max} more)`;

// ── Path ────────────────────────────────────────────────────────────────────────────────────────

function pathsOf(target: Target): fc.Arbitrary<Part<string>> {
  const { route } = target;
  if (route.params.length === 0) return fc.constant(part(undefined, route.path));
  const variants = route.params.map((param) => segmentsOf(param, target));
  return fc.tuple(...variants).map((segments) => {
    const byParam = new Map(route.params.map((param, i) => [param, segments[i]!]));
    const odd = segments.find((s) => s.label !== undefined);
    return part(
      odd?.label,
      pathWith(route, (param) => byParam.get(param)!.value),
      segments.map((s) => s.mustRefuse).find(Boolean),
    );
  });
}

function segmentsOf(param: string, target: Target): fc.Arbitrary<Part<string>> {
  const { route } = target;
  const documented: Schema | undefined = (route.documented?.operation.parameters ?? []).find(
    (p: Body) => p.in === 'path' && p.name === param,
  )?.schema;
  const schema = documented ? schemaOf(documented, route.documented!.doc) : undefined;
  const constraint = route.path.match(new RegExp(`:${param}\\{([^}]*)\\}`))?.[1];
  const matcher = constraint === undefined ? undefined : new RegExp(`^(?:${constraint})$`);
  /** Why a decoded value names nothing the route can act on, if it certainly does not. */
  const refusal = (value: string): string | undefined => {
    if (matcher && !matcher.test(value)) return `:${param} does not match the route`;
    if (schema?.format === 'uuid') return violation(value, schema, route.documented!.doc, `:${param}`);
    return undefined;
  };
  const sending = (label: string | undefined, sent: string) =>
    part(label, sent, refusal(lenientlyDecoded(sent)));
  const unknown = fc
    .uuid({ version: 4 })
    .map((id) =>
      part(
        `unknown :${param}`,
        id,
        refusal(id) ?? (schema?.format === 'uuid' ? `:${param} names no resource` : undefined),
      ),
    );
  const own = target.ownIds[param];
  const ownArb =
    own !== undefined
      ? fc.constant(part(undefined, own))
      : matcher
        ? fc.stringMatching(matcher).map((value) => sending(undefined, encodeSegment(value)))
        : unknown;
  const malformed = fc.uuid({ version: 4 }).chain((id) =>
    fc.oneof(
      fc
        .constantFrom(...MALFORMED_UUIDS(id).filter((v) => v.trim() !== '' && v !== '.' && v !== '..'))
        .map((value) => sending(`malformed :${param}`, encodeSegment(value))),
      fc
        .tuple(fc.constantFrom(...RAW_SEGMENTS), fc.constantFrom('', id, 'x'))
        .map(([raw, around]) => sending(`malformed :${param}`, `${around}${raw}`)),
      fc.constantFrom(...ODD_UUIDS(id)).map((value) => sending(`odd uuid :${param}`, encodeSegment(value))),
    ),
  );
  const foreign = target.foreignIds[param];
  return fc.oneof(
    ...(target.waitsForAgent ? [] : [{ weight: 14, arbitrary: ownArb }]),
    { weight: 2, arbitrary: unknown },
    { weight: 4, arbitrary: malformed },
    ...(foreign === undefined
      ? []
      : [
          {
            weight: 2,
            arbitrary: fc.constant(part(`foreign :${param}`, foreign, `:${param} is another tenant's`)),
          },
        ]),
  );
}

/** Percent-encodes a segment, lone surrogates included (as the bytes a careless encoder sends). */
function encodeSegment(value: string): string {
  return [...value]
    .map((c) =>
      /[\uD800-\uDFFF]/.test(c)
        ? `%ED%${hex(0xa0 | ((c.charCodeAt(0) >> 6) & 0x1f))}%${hex(0x80 | (c.charCodeAt(0) & 0x3f))}`
        : encodeURIComponent(c),
    )
    .join('');
}

const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');

function lenientlyDecoded(sent: string): string {
  try {
    return decodeURIComponent(sent);
  } catch {
    return sent;
  }
}

// ── Query ───────────────────────────────────────────────────────────────────────────────────────

const HOSTILE_QUERY_VALUES = [
  '',
  ' ',
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  'Infinity',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '9'.repeat(400),
  '2147483648',
  '9007199254740993',
  '1e400',
  '2026-13-45T99:99:99Z',
  '2026-02-30T00:00:00Z',
  '0000-00-00T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  'yesterday',
  ...REFUSED_TEXT,
];

function queriesOf(target: Target): fc.Arbitrary<Part<string>> {
  const { route } = target;
  const parameters: Body[] = (route.documented?.operation.parameters ?? []).filter(
    (p: Body) => p.in === 'query',
  );
  const doc = route.documented?.doc;
  const documented = parameters.map((p) => {
    const schema = schemaOf(p.schema ?? {}, doc);
    const refusal = (value: string) => queryViolation(value, schema, doc, p.name);
    return fc
      .oneof(
        { weight: 4, arbitrary: fc.constant<[string, string][]>([]) },
        {
          weight: 4,
          arbitrary: validValue(schema, doc).map((v): [string, string][] =>
            v === null ? [] : [[p.name, String(v)]],
          ),
        },
        {
          weight: 3,
          arbitrary: fc
            .oneof(fc.constantFrom(...HOSTILE_QUERY_VALUES), storableText(0, 40))
            .map((v): [string, string][] => [[p.name, v]]),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom(...HOSTILE_QUERY_VALUES), fc.constantFrom('1', ''))
            .map(([a, b]): [string, string][] => [
              [p.name, a],
              [p.name, b],
            ]),
        },
      )
      .map((pairs) => ({ pairs, refusal }));
  });
  const unknown = fc.oneof(
    { weight: 4, arbitrary: fc.constant<[string, string][]>([]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.tuple(
          fc.oneof(storableText(1, 12), fc.constantFrom(...Object.keys(MASS_ASSIGNMENT))),
          storableText(0, 20),
        ),
        {
          minLength: 1,
          maxLength: 4,
        },
      ),
    },
  );
  return fc.tuple(fc.tuple(...documented), unknown, fc.boolean()).map(([params, extra, raw]) => {
    const extraPairs = extra.filter(([k]) => !parameters.some((p) => p.name === k));
    const pairs = [...params.flatMap((p) => p.pairs), ...extraPairs];
    if (pairs.length === 0) return part(undefined, '');
    // Raw: the URL parser encodes what it must, and a stray `%` stays for the server to decode.
    // Controls and spaces are encoded even then: the URL parser would drop them at the end; so are
    // unpaired surrogates, which it would send as U+FFFD, a value the server may well accept.
    const encode = (v: string) =>
      raw ? v.replace(/[\p{Cc}\p{Cs}\s&#+]/gu, encodeSegment) : encodeSegment(v);
    let mustRefuse: string | undefined;
    for (const p of params) {
      // A parameter sent twice may be read either way: only a single value is judged, as decoded.
      if (p.pairs.length === 1) mustRefuse ??= p.refusal(lenientlyDecoded(encode(p.pairs[0]![1])));
    }
    const odd = params.some((p) => p.pairs.length > 1) || extraPairs.length > 0 || mustRefuse !== undefined;
    const text = pairs.map(([k, v]) => `${encodeSegment(k)}=${encode(v)}`).join('&');
    return part(odd ? 'odd query' : undefined, `?${text}`, mustRefuse);
  });
}

/** A query value is text; a numeric parameter is judged by the most lenient reading, `Number()`. */
function queryViolation(value: string, schema: Schema, doc: Body, name: string): string | undefined {
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) {
    const number = Number(value);
    return Number.isNaN(number)
      ? `?${name} is not a number`
      : violation(number, { ...schema, type: types.filter((t) => t !== 'null') }, doc, `?${name}`);
  }
  if (types.includes('string') || types.length === 0) return violation(value, schema, doc, `?${name}`);
  return undefined;
}

// ── Headers ─────────────────────────────────────────────────────────────────────────────────────

function headersOf(): fc.Arbitrary<Record<string, string>> {
  const value = fc.string({ unit: 'grapheme-ascii', maxLength: 300 });
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: value.map((v) => ({ 'X-Request-Id': v })) },
    { weight: 1, arbitrary: value.map((v) => ({ 'Idempotency-Key': v })) },
  );
}

// ── Body ────────────────────────────────────────────────────────────────────────────────────────

interface BodyPart {
  readonly text: string | undefined;
  readonly contentType: string | undefined;
  readonly massAssigned: readonly string[];
}

const JSON_TYPE = 'application/json';
const json = (value: unknown, massAssigned: readonly string[] = []): BodyPart => ({
  text: jsonText(value),
  contentType: JSON_TYPE,
  massAssigned,
});

/** A route without a documented body: whatever is sent is not read, so it decides nothing. */
const junkBodies: fc.Arbitrary<Part<BodyPart>> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constant(
      part<BodyPart>(undefined, { text: undefined, contentType: undefined, massAssigned: [] }),
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => part('junk body', json(v))) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...MALFORMED_JSON('{}')), fc.constantFrom(JSON_TYPE, ...NON_JSON_CONTENT_TYPES))
      .map(([text, contentType]) => part<BodyPart>('junk body', { text, contentType, massAssigned: [] })),
  },
);

/** Where in a baseline body a hostile value can go, with the schema that rules there. */
interface Slot {
  readonly path: Path;
  readonly schema: Schema;
}

function slotsOf(value: unknown, schema: Schema, doc: Body, path: Path = []): Slot[] {
  const s = schemaOf(schema, doc);
  const here: Slot = { path, schema: s };
  if (path.length > 6) return [here];
  if (Array.isArray(value)) {
    return [here, ...value.slice(0, 3).flatMap((item, i) => slotsOf(item, s.items ?? {}, doc, [...path, i]))];
  }
  if (value !== null && typeof value === 'object') {
    const properties: Record<string, Schema> = s.properties ?? {};
    // Absent optional fields are places too: a wrong value there must still be refused.
    const names = new Set([...Object.keys(value), ...Object.keys(properties)]);
    return [
      here,
      ...[...names].flatMap((name) =>
        slotsOf(
          (value as Record<string, unknown>)[name],
          properties[name] ??
            (s.additionalProperties && s.additionalProperties !== true ? s.additionalProperties : {}),
          doc,
          [...path, name],
        ),
      ),
    ];
  }
  return [here];
}

const isOfType = (slot: Slot, type: string) => typesOf(slot.schema).includes(type);
const WRONG_TYPE_VALUES: unknown[] = [
  '1',
  '',
  'true',
  1,
  0,
  -1,
  1.5,
  true,
  false,
  null,
  [],
  [1],
  {},
  { a: 1 },
  [[[]]],
];

function bodiesOf(schema: Schema, target: Target): fc.Arbitrary<Part<BodyPart>> {
  const { route } = target;
  const doc = route.documented!.doc;
  const required = route.documented!.operation.requestBody?.required === true;
  const judge = (sent: BodyPart): string | undefined =>
    bodyViolation(sent, schema, doc, target.bodyLimit, required);
  const made = (label: string | undefined, sent: BodyPart) => part(label, sent, judge(sent));

  return validValue(schema, doc, target.hints).chain((baseline) => {
    const slots = slotsOf(baseline, schema, doc);
    /** A kind that needs a place of some kind, left out where the body has none. */
    const at = (
      filter: (s: Slot) => boolean,
      weight: number,
      kind: (slot: fc.Arbitrary<Slot>) => fc.Arbitrary<Part<BodyPart>>,
    ): fc.WeightedArbitrary<Part<BodyPart>>[] => {
      const matching = slots.filter(filter);
      return matching.length > 0 ? [{ weight, arbitrary: kind(fc.constantFrom(...matching)) }] : [];
    };
    const putting = (s: Slot, value: unknown) => json(withAt(baseline, s.path, value));
    const current = (s: Slot) =>
      s.path.reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k as string], baseline);
    const objectAt = (s: Slot): Record<string, unknown> => {
      const value = current(s);
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : {};
    };
    const documentedNames = new Set(Object.keys(schemaOf(schema, doc).properties ?? {}));
    const anySlot = () => true;
    const objects = (s: Slot) => isOfType(s, 'object');
    const strings = (s: Slot) => isOfType(s, 'string');
    const numbers = (s: Slot) => isOfType(s, 'integer') || isOfType(s, 'number');

    return fc.oneof(
      { weight: 4, arbitrary: fc.constant(made(undefined, json(baseline))) },
      ...at(objects, 2, (slot) =>
        fc
          .tuple(slot, fc.dictionary(unknownKey, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }))
          .map(([s, extra]) => {
            const object = Object.entries(extra).reduce(
              (o, [key, value]) => withField(o, key, value),
              objectAt(s),
            );
            return made('unknown fields', putting(s, object));
          }),
      ),
      {
        weight: 3,
        arbitrary: fc
          .subarray(
            Object.keys(MASS_ASSIGNMENT).filter((name) => !documentedNames.has(name)),
            { minLength: 1 },
          )
          .map((names) => {
            const object = objectAt({ path: [], schema });
            for (const name of names) withField(object, name, MASS_ASSIGNMENT[name]);
            return made('mass assignment', json(object, names));
          }),
      },
      ...at(anySlot, 3, (slot) =>
        fc
          .tuple(slot, fc.constantFrom(...WRONG_TYPE_VALUES))
          .map(([s, value]) => made('wrong type', putting(s, value))),
      ),
      ...at(
        (s) => s.path.length > 0,
        2,
        (slot) => slot.map((s) => made('missing field', json(withoutAt(baseline, s.path)))),
      ),
      ...at(
        (s) => strings(s) || typesOf(s.schema).length === 0,
        3,
        (slot) =>
          fc.tuple(slot, fc.constantFrom(...REFUSED_TEXT), fc.nat()).map(([s, refused, n]) => {
            const value = current(s);
            const text = typeof value === 'string' ? value : 'x';
            const cutAt = n % (text.length + 1);
            return made('refused text', putting(s, `${text.slice(0, cutAt)}${refused}${text.slice(cutAt)}`));
          }),
      ),
      ...at(objects, 1, (slot) =>
        fc
          .tuple(slot, fc.constantFrom(...REFUSED_TEXT))
          .map(([s, refused]) =>
            made('refused text in a key', putting(s, withField(objectAt(s), `k${refused}`, 'v'))),
          ),
      ),
      ...at(strings, 2, (slot) =>
        fc.tuple(slot, storableText(0, 600)).map(([s, text]) => made('exotic text', putting(s, text))),
      ),
      ...at(numbers, 3, (slot) =>
        fc.tuple(slot, fc.nat()).map(([s, n]) => {
          const { min, max } = boundsOf(s.schema, isOfType(s, 'integer'));
          const edges = [min - 1, max + 1, min, max].filter(Number.isFinite).map(String);
          const literals = [...EXTREME_NUMBER_LITERALS, ...edges];
          return made('extreme number', putting(s, new RawJson(literals[n % literals.length]!)));
        }),
      ),
      ...at(
        (s) => s.schema.format === 'uuid',
        2,
        (slot) =>
          fc.tuple(slot, fc.uuid({ version: 4 }), fc.nat()).map(([s, id, n]) => {
            const values = [...MALFORMED_UUIDS(id), ...ODD_UUIDS(id)];
            return made('malformed uuid', putting(s, values[n % values.length]));
          }),
      ),
      ...at(anySlot, 1, (slot) =>
        fc
          .tuple(slot, fc.constantFrom(1, 2, 8), fc.constantFrom('x', '東', '\u00e9', '🚀', '\\"'))
          .map(([s, scale, unit]) => {
            const n = Math.min(Math.ceil(((s.schema.maxLength ?? 1000) + 1) * scale), 400_000);
            return made('huge string', putting(s, new RawJson(`"${unit.repeat(n)}"`)));
          }),
      ),
      ...at(anySlot, 1, (slot) =>
        fc
          .tuple(slot, fc.constantFrom(1001, 20_000, 200_000), fc.constantFrom('1', '{}', '"x"', 'null'))
          .map(([s, n, item]) =>
            made('huge array', putting(s, new RawJson(`[${new Array(n).fill(item).join(',')}]`))),
          ),
      ),
      ...at(anySlot, 2, (slot) =>
        fc.tuple(slot, fc.constantFrom(33, 100, 1_000, 100_000), fc.boolean()).map(([s, depth, arrays]) => {
          const nested = arrays
            ? `${'['.repeat(depth)}${']'.repeat(depth)}`
            : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
          return made('deep nesting', putting(s, new RawJson(nested)));
        }),
      ),
      {
        weight: 1,
        arbitrary: fc.constantFrom('pad', 'space').map((how) => {
          const text = jsonText(baseline);
          const padding = Math.max(target.bodyLimit + 1 - text.length, 1);
          const sent =
            how === 'space' || !text.startsWith('{') || text === '{}'
              ? `${' '.repeat(padding)}${text}`
              : `{"pad":"${'x'.repeat(padding)}",${text.slice(1)}`;
          return made('over the size limit', { text: sent, contentType: JSON_TYPE, massAssigned: [] });
        }),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom<unknown>([], [baseline], 'text', 1, true, null, new RawJson('1e400'))
          .map((value) => made('not an object', json(value))),
      },
      {
        weight: 2,
        arbitrary: fc
          .constantFrom(...MALFORMED_JSON(jsonText(baseline)))
          .map((text) => made('malformed JSON', { text, contentType: JSON_TYPE, massAssigned: [] })),
      },
      {
        weight: 2,
        arbitrary: fc
          .oneof(
            fc.constantFrom(...NON_JSON_CONTENT_TYPES),
            fc.constantFrom(...ODD_JSON_CONTENT_TYPES),
            fc.constant(undefined),
          )
          .map((contentType) =>
            made('content type', { text: jsonText(baseline), contentType, massAssigned: [] }),
          ),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(JSON_TYPE, undefined)
          .map((contentType) => made('no body', { text: undefined, contentType, massAssigned: [] })),
      },
    );
  });
}

const unknownKey = fc.oneof(
  { weight: 3, arbitrary: storableText(1, 20) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      '',
      ' ',
      'a.b',
      '$where',
      'NaN',
    ),
  },
);

const isJsonType = (contentType: string) => /^application\/(?:[\w.-]+\+)?json\s*(?:;.*)?$/i.test(contentType);

/** Why a body must be refused, if it certainly must. */
function bodyViolation(
  sent: BodyPart,
  schema: Schema,
  doc: Body,
  limit: number,
  required: boolean,
): string | undefined {
  if (sent.text === undefined) return required ? 'no body was sent' : undefined;
  if (Buffer.byteLength(sent.text) > limit) return `the body is over ${limit} bytes`;
  if (sent.contentType === undefined || !isJsonType(sent.contentType)) return 'the body is not sent as JSON';
  let parsed: unknown;
  try {
    // Read as the Fetch standard decodes UTF-8, which drops one leading byte order mark.
    parsed = JSON.parse(sent.text.replace(/^\ufeff/, ''));
  } catch {
    return 'the body is not JSON';
  }
  return violation(parsed, schema, doc);
}
