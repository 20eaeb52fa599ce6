import fc from 'fast-check';
import type { Body } from '../support/http.js';
import { resolved } from '../support/routes.js';

/** Reading the JSON schemas of the OpenAPI documents, as both the generators and the oracle need. */

export type Schema = Body;

/**
 * Characters every text input refuses (docs/api.md "Conventions"): control characters and unpaired
 * surrogates. Tab and line breaks are left out: multi-line text (messages) takes them.
 */
export const REFUSED_CHARACTER = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

export const schemaOf = (schema: Schema, doc: Body): Schema => resolved(schema, doc) ?? {};

/** The JSON types a schema allows; empty when it allows anything. */
export function typesOf(schema: Schema): string[] {
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return schema.nullable && types.length > 0 ? [...types, 'null'] : types;
}

export const jsonTypeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

/** Whether a value is of one of the types, as JSON Schema counts them (an integer is a number). */
export function hasType(value: unknown, types: string[]): boolean {
  if (types.length === 0) return true;
  if (typeof value === 'number' && !Number.isFinite(value)) return false;
  const type = jsonTypeOf(value);
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** The inclusive bounds of a numeric schema, within what a JavaScript number holds exactly. */
export function boundsOf(schema: Schema, integer: boolean): { min: number; max: number } {
  const low = integer ? Number.MIN_SAFE_INTEGER : -Number.MAX_VALUE;
  const high = integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
  const step = integer ? 1 : 0;
  const min =
    schema.minimum ?? (schema.exclusiveMinimum === undefined ? low : schema.exclusiveMinimum + step);
  const max =
    schema.maximum ?? (schema.exclusiveMaximum === undefined ? high : schema.exclusiveMaximum - step);
  return { min: Math.max(min, low), max: Math.min(max, high) };
}

const patterns = new Map<string, RegExp | undefined>();
/** Patterns of the documents that no string matches; reported, and left out of the oracle. */
export const unsatisfiablePatterns = new Set<string>();

/**
 * A schema's `pattern` as a regular expression (JSON Schema patterns are ECMA-262, Unicode-aware),
 * or undefined if it does not compile or no string matches it: such a pattern describes nothing,
 * and treating it as a rule would call every value invalid.
 */
export function usablePattern(source: string): RegExp | undefined {
  if (patterns.has(source)) return patterns.get(source);
  let pattern: RegExp | undefined;
  try {
    pattern = new RegExp(source, 'u');
  } catch {
    pattern = undefined;
  }
  if (pattern && !satisfiable(pattern)) {
    unsatisfiablePatterns.add(source);
    pattern = undefined;
  }
  patterns.set(source, pattern);
  return pattern;
}

function satisfiable(pattern: RegExp): boolean {
  const probes = ['', 'x', 'X', '0', 'x-0', 'xx', 'X0', 'a_b.c-d'];
  if (probes.some((probe) => pattern.test(probe))) return true;
  try {
    return fc.sample(fc.stringMatching(pattern), { numRuns: 50, seed: 1 }).some((s) => pattern.test(s));
  } catch {
    return false;
  }
}

/** Whether `text()` in its single- or multi-line form would take the string. */
export const isStorable = (value: string) => !REFUSED_CHARACTER.test(value);

/** A string's length counted both ways a validator may count it: UTF-16 units and code points. */
export const lengthsOf = (value: string) => ({ units: value.length, points: [...value].length });
