import fc from 'fast-check';
import type { Body } from '../support/http.js';
import { boundsOf, isStorable, type Schema, schemaOf, typesOf, usablePattern } from './schema.js';

/**
 * Values a schema accepts, as fast-check arbitraries: the baselines the hostile kinds mutate and
 * the valid requests that reach the handlers. Strings are storable but far from plain ASCII.
 */

/** Values the schemas cannot know (a seeded location, the caller's own instance), by field name. */
export type Hints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** Well-formed text that stresses whatever handles it: direction marks, joiners, astral planes. */
const EXOTIC_TEXT = [
  '\u202e',
  '\u200b',
  '\u200d',
  '\ufeff',
  'e\u0301',
  '\u00a0',
  'İ',
  'ß',
  'ǅ',
  '東京',
  '🚀',
  '👩‍👩‍👧',
  '\u{10ffff}',
  '\uffff',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '"',
  '\\',
  "'; --",
  '%s%n',
  '{{7*7}}',
  '<script>',
];

const character = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(...EXOTIC_TEXT) },
);

/** Cuts a string to at most `max` UTF-16 units without leaving half a surrogate pair. */
export function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  const head = value.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

/** Storable text of `min` to `max` UTF-16 units, now and then exactly at a bound. */
export function storableText(min = 0, max = 256): fc.Arbitrary<string> {
  const fit = (s: string) => {
    const kept = cut([...s].filter(isStorable).join(''), max);
    return kept.length >= min ? kept : kept.padEnd(min, 'x');
  };
  const free = fc.string({ unit: character, minLength: min, maxLength: Math.min(max, min + 24) }).map(fit);
  return fc.oneof(
    { weight: 8, arbitrary: free },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(min, max)
        .chain((n) => fc.constantFrom('x', 'é', '東').map((c) => cut(c.repeat(n), n))),
    },
  );
}

export function validValue(schema: Schema, doc: Body, hints: Hints = {}): fc.Arbitrary<unknown> {
  const s = schemaOf(schema, doc);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives: Schema[] | undefined = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((branch) => validValue(branch, doc, hints)));
  const types = typesOf(s).filter((t) => t !== 'null');
  const value =
    types.length === 0 ? anyJson : fc.oneof(...types.map((type) => valueOfType(type, s, doc, hints)));
  return typesOf(s).includes('null')
    ? fc.oneof({ weight: 5, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) })
    : value;
}

/** Any JSON, storable: what a map of unknown shape (a task's result) takes. */
const anyJson: fc.Arbitrary<unknown> = fc
  .jsonValue({ maxDepth: 3, stringUnit: character })
  .map(function storable(value: unknown): unknown {
    if (typeof value === 'string') return [...value].filter(isStorable).join('');
    if (Array.isArray(value)) return value.map(storable);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [[...k].filter(isStorable).join(''), storable(v)]),
      );
    }
    return value;
  });

function valueOfType(type: string, s: Schema, doc: Body, hints: Hints): fc.Arbitrary<unknown> {
  switch (type) {
    case 'object':
      return objectOf(s, doc, hints);
    case 'array': {
      const min = s.minItems ?? 0;
      const max = s.maxItems ?? min + 4;
      const item = validValue(s.items ?? {}, doc, hints);
      const few = fc.array(item, { minLength: min, maxLength: Math.min(max, min + 4) });
      // The largest list a route takes, now and then: its size is part of the contract too.
      if (max > min + 4 && max <= 1000) {
        return fc.oneof(
          { weight: 19, arbitrary: few },
          { weight: 1, arbitrary: fc.array(item, { minLength: max, maxLength: max }) },
        );
      }
      return few;
    }
    case 'integer': {
      const { min, max } = boundsOf(s, true);
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min, max }) },
        { weight: 1, arbitrary: fc.constantFrom(min, max) },
      );
    }
    case 'number': {
      const { min, max } = boundsOf(s, false);
      return fc.double({
        min,
        max,
        noNaN: true,
        noDefaultInfinity: true,
        minExcluded: s.exclusiveMinimum !== undefined && s.minimum === undefined,
        maxExcluded: s.exclusiveMaximum !== undefined && s.maximum === undefined,
      });
    }
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringOf(s);
    default:
      return fc.constant(null);
  }
}

function objectOf(s: Schema, doc: Body, hints: Hints): fc.Arbitrary<unknown> {
  const properties: Record<string, Schema> = s.properties ?? {};
  if (Object.keys(properties).length === 0 && s.additionalProperties !== false) {
    const values =
      s.additionalProperties && s.additionalProperties !== true
        ? validValue(s.additionalProperties, doc, hints)
        : anyJson;
    return fc.dictionary(storableText(1, 16), values, { maxKeys: 4 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const hint = hints[name];
    const own = validValue(property, doc, hints);
    model[name] = hint ? fc.oneof({ weight: 9, arbitrary: hint }, { weight: 1, arbitrary: own }) : own;
  }
  return fc.record(model, { requiredKeys: (s.required ?? []) as string[] });
}

function stringOf(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, 256);
  if (s.format === 'uuid') return fc.uuid({ version: 4 });
  if (s.format === 'date-time') {
    return fc
      .date({
        min: new Date('2010-01-01T00:00:00Z'),
        max: new Date('2090-12-31T23:59:59Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString());
  }
  const pattern = s.pattern === undefined ? undefined : usablePattern(s.pattern);
  if (pattern) {
    try {
      return fc
        .stringMatching(pattern)
        .filter((v) => v.length >= min && v.length <= max && isStorable(v) && pattern.test(v));
    } catch {
      // fast-check cannot build strings for this pattern: the oracle then decides each one.
    }
  }
  return storableText(min, max);
}
