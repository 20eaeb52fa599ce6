import { z } from 'zod';

/**
 * What the database and a hypervisor can hold, as schemas every input uses: bad input is then a
 * 400 naming its field, never a 500 from PostgreSQL or a name a hypervisor refuses.
 */

/** The largest value of a PostgreSQL `integer` column. */
export const INT4_MAX = 2_147_483_647;

// NUL: PostgreSQL text and jsonb cannot hold it. Unpaired surrogates are not Unicode: UTF-8
// cannot encode them and jsonb refuses them. Other control characters (C0, DEL, C1): names of
// hypervisors and guests cannot hold them, and in logs and terminals they hide or rewrite text.
// Multi-line text (messages) keeps tab, line feed and carriage return.
const SINGLE_LINE = /^[^\p{Cc}\p{Cs}]*$/u;
const MULTI_LINE = /^(?:[^\p{Cc}\p{Cs}]|[\t\n\r])*$/u;
const REFUSED_IN_SINGLE_LINE = /[\p{Cc}\p{Cs}]/gu;
const REFUSED_IN_MULTI_LINE = /(?![\t\n\r])[\p{Cc}\p{Cs}]/gu;

const SINGLE_LINE_MESSAGE = 'Must not contain control characters or unpaired surrogates.';
const MULTI_LINE_MESSAGE =
  'Must not contain control characters other than tab and line breaks, or unpaired surrogates.';

export interface TextBounds {
  readonly max: number;
  /** Default 1: an empty string is refused. */
  readonly min?: number;
  /** Allows tab, line feed and carriage return. */
  readonly multiline?: boolean;
  /** Trims surrounding white space before the length is checked. */
  readonly trim?: boolean;
}

/** The one schema for free text in any input: bounded, and holding only storable characters. */
export function text(bounds: TextBounds) {
  const base = bounds.trim ? z.string().trim() : z.string();
  return base
    .min(bounds.min ?? 1)
    .max(bounds.max)
    .regex(bounds.multiline ? MULTI_LINE : SINGLE_LINE, {
      message: bounds.multiline ? MULTI_LINE_MESSAGE : SINGLE_LINE_MESSAGE,
    });
}

/**
 * Makes text a sender produced itself (an error message from a hypervisor) acceptable to
 * `text()`: refused characters become U+FFFD and the text is cut to `max`, so a report carrying it
 * is not refused for its message.
 */
export function storableText(value: string, bounds: Pick<TextBounds, 'max' | 'multiline'>): string {
  const cleaned = value.replace(bounds.multiline ? REFUSED_IN_MULTI_LINE : REFUSED_IN_SINGLE_LINE, '\uFFFD');
  if (cleaned.length <= bounds.max) return cleaned;
  // Cutting between the halves of a surrogate pair would leave an unpaired one.
  const cut = cleaned.slice(0, bounds.max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** An integer that fits a PostgreSQL `integer` column. */
export const int4 = (min = 0) => z.number().int().min(min).max(INT4_MAX);

/** float4's smallest normal magnitude: below it a `real` keeps only a few bits, and then none. */
const FLOAT4_MIN_NORMAL = 1.1754943508222875e-38;

/**
 * A number for a PostgreSQL `real` column. The column keeps about seven significant digits and
 * rounds the rest away, but a value too close to zero for it is refused (an error, not a zero), so
 * such a value is taken as the zero the column would hold. `min` and `max` must lie within ±3.4e38.
 */
export const real = (min: number, max: number) =>
  z
    .number()
    .min(min)
    .max(max)
    .transform((value) => (Math.abs(value) < FLOAT4_MIN_NORMAL ? 0 : value));

/** The most items an array, or members an object, of a request body holds. */
export const MAX_JSON_ITEMS = 10_000;
/** How deep a request body nests at most. */
export const MAX_JSON_NESTING = 64;

/**
 * Where a parsed request body is larger in shape than any route takes, or undefined. It is checked
 * before validation: a validator that collects one issue per item of a 200,000-item array (a
 * 400 KB body) exhausts the stack, and nesting a route ignores is still walked by whatever copies
 * the body.
 */
export function jsonShapeProblem(
  value: unknown,
  path: readonly string[] = [],
): { field: string; detail: string } | undefined {
  const field = path.join('.');
  if (path.length > MAX_JSON_NESTING)
    return { field, detail: `Must be nested at most ${MAX_JSON_NESTING} levels deep.` };
  if (value === null || typeof value !== 'object') return undefined;
  const entries: Iterable<[number | string, unknown]> = Array.isArray(value)
    ? value.entries()
    : Object.entries(value);
  const size = Array.isArray(value) ? value.length : Object.keys(value).length;
  if (size > MAX_JSON_ITEMS) return { field, detail: `Must hold at most ${MAX_JSON_ITEMS} items.` };
  for (const [key, item] of entries) {
    const problem = jsonShapeProblem(item, [...path, String(key)]);
    if (problem) return problem;
  }
  return undefined;
}

const MAX_JSON_DEPTH = 32;

/**
 * A JSON object stored as jsonb (an agent's task result): at most `maxLength` characters once
 * serialized, at most 32 levels deep, and every key and string storable (multi-line text rules).
 */
export function storableJsonObject(bounds: { readonly maxLength: number }) {
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    // Depth first: serializing a value nested thousands deep would exhaust the stack.
    const problem = jsonProblem(value, 0);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
    else if (JSON.stringify(value).length > bounds.maxLength) {
      ctx.addIssue({ code: 'custom', message: `Must be at most ${bounds.maxLength} characters as JSON.` });
    }
  });
}

function jsonProblem(value: unknown, depth: number): string | undefined {
  if (depth > MAX_JSON_DEPTH) return `Must be nested at most ${MAX_JSON_DEPTH} levels deep.`;
  if (typeof value === 'string') return MULTI_LINE.test(value) ? undefined : MULTI_LINE_MESSAGE;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!MULTI_LINE.test(key)) return MULTI_LINE_MESSAGE;
    const problem = jsonProblem(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}
