import type { Body } from '../support/http.js';
import {
  boundsOf,
  hasType,
  isStorable,
  jsonTypeOf,
  lengthsOf,
  type Schema,
  schemaOf,
  typesOf,
  usablePattern,
} from './schema.js';

/**
 * The oracle: the first rule of its schema (or of the conventions of docs/api.md) a value certainly
 * breaks, or undefined. "Certainly" matters: a request this names must be refused, so where the
 * documents leave room (how a length is counted, which UUID versions count) it names nothing.
 */

const LOOSE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LOOSE_DATE_TIME = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:[Zz]|[+-]\d\d:?\d\d)?$/;
/** Beyond this a value is not walked: the oracle must not itself run out of stack. */
const MAX_WALK_DEPTH = 64;

export function violation(value: unknown, schema: Schema, doc: Body, at = '', depth = 0): string | undefined {
  if (depth > MAX_WALK_DEPTH) return undefined;
  const s = schemaOf(schema, doc);
  const where = at || 'the body';
  const alternatives: Schema[] | undefined = s.anyOf ?? s.oneOf;
  if (alternatives) {
    const found = alternatives.map((branch) => violation(value, branch, doc, at, depth));
    if (found.every((v) => v !== undefined)) return found[0];
  }
  for (const part of (s.allOf ?? []) as Schema[]) {
    const found = violation(value, part, doc, at, depth);
    if (found) return found;
  }
  if (s.const !== undefined && value !== s.const) return `${where} is not ${JSON.stringify(s.const)}`;
  if (s.enum && !s.enum.includes(value)) return `${where} is not one of ${JSON.stringify(s.enum)}`;
  const types = typesOf(s);
  if (!hasType(value, types)) return `${where} is ${jsonTypeOf(value)}, not ${types.join(' or ')}`;

  if (typeof value === 'string') return stringViolation(value, s, where);
  if (typeof value === 'number') return numberViolation(value, s, where, types);
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems)
      return `${where} has fewer than ${s.minItems} items`;
    if (s.maxItems !== undefined && value.length > s.maxItems)
      return `${where} has more than ${s.maxItems} items`;
    for (const [i, item] of value.entries()) {
      const found = violation(item, s.items ?? {}, doc, `${at}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') return objectViolation(value as Body, s, doc, at, depth);
  return undefined;
}

function stringViolation(value: string, s: Schema, where: string): string | undefined {
  // A field that trims takes white space controls (\t, \f, …) at either end away instead of refusing them.
  if (!isStorable(value.trim())) return `${where} holds a control character or an unpaired surrogate`;
  const trimmed = lengthsOf(value.trim());
  const { units, points } = lengthsOf(value);
  if (s.maxLength !== undefined && Math.min(trimmed.units, trimmed.points) > s.maxLength) {
    return `${where} is over ${s.maxLength} long`;
  }
  if (s.minLength !== undefined && Math.max(units, points) < s.minLength)
    return `${where} is under ${s.minLength} long`;
  if (s.format === 'uuid' && !LOOSE_UUID.test(value.trim())) return `${where} is not a UUID`;
  if (s.format === 'date-time' && !LOOSE_DATE_TIME.test(value.trim())) return `${where} is not a date-time`;
  const pattern = s.pattern === undefined ? undefined : usablePattern(s.pattern);
  if (pattern && !pattern.test(value) && !pattern.test(value.trim()))
    return `${where} does not match ${s.pattern}`;
  return undefined;
}

function numberViolation(value: number, s: Schema, where: string, types: string[]): string | undefined {
  if (types.length > 0 && !types.includes('number') && !Number.isInteger(value))
    return `${where} is not an integer`;
  const { min, max } = boundsOf(s, false);
  const exclusiveMin = s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum;
  const exclusiveMax = s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum;
  if (value < min || exclusiveMin) return `${where} is below its minimum`;
  if (value > max || exclusiveMax) return `${where} is above its maximum`;
  return undefined;
}

function objectViolation(value: Body, s: Schema, doc: Body, at: string, depth: number): string | undefined {
  const properties: Record<string, Schema> = s.properties ?? {};
  for (const name of (s.required ?? []) as string[]) {
    if (!Object.hasOwn(value, name)) return `${at ? `${at}.` : ''}${name} is missing`;
  }
  for (const [name, item] of Object.entries(value)) {
    const path = at ? `${at}.${name}` : name;
    const known = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (known !== undefined) {
      const found = violation(item, known, doc, path, depth + 1);
      if (found) return found;
      continue;
    }
    if (s.additionalProperties === false) return `${path} is not a known field`;
    // A map (a task's result) holds whatever it is given, so its keys are text too; unknown fields
    // of a fixed shape are dropped, whatever they hold.
    const map = s.properties === undefined;
    if (map && !isStorable(name))
      return `a key of ${at || 'the body'} holds a control character or an unpaired surrogate`;
    const extra = s.additionalProperties === true ? {} : s.additionalProperties;
    if (map || extra !== undefined) {
      const found = violation(item, extra ?? {}, doc, path, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}
