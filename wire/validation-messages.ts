import type { $ZodRawIssue as RawIssue } from 'zod/v4/core';

/**
 * What a field's refusal says (docs/api.md "Errors"), in place of zod's own wording ("Invalid
 * input: expected string, received undefined"), which speaks of the parser rather than the
 * request. A schema's own message still wins: this map is zod's fallback, below the schema's.
 * The validation hook puts the field's path in front (`hostname: Required (a string).`).
 */
export function fieldMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `Required (${kind(issue.expected)}).`
        : `Must be ${kind(issue.expected)}, not ${kind(typeOf(issue.input))}.`;
    case 'too_small':
      return bound(
        'at least',
        issue.inclusive === false ? 'greater than' : 'at least',
        issue.origin,
        issue.minimum,
      );
    case 'too_big':
      return bound(
        'at most',
        issue.inclusive === false ? 'less than' : 'at most',
        issue.origin,
        issue.maximum,
      );
    case 'invalid_format':
      return `Must be ${formatName(issue.format, issue.pattern)}.`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Must be ${literal(issue.values[0])}.`
        : `Must be one of ${issue.values.map(literal).join(', ')}.`;
    case 'not_multiple_of':
      return `Must be a multiple of ${issue.divisor}.`;
    case 'invalid_union':
      return 'Matches none of the forms this field takes (see the OpenAPI document).';
    case 'unrecognized_keys':
      return 'Unknown field.';
    default:
      return undefined;
  }
}

const ARTICLES: Record<string, string> = {
  int: 'an integer',
  array: 'an array',
  object: 'an object',
  undefined: 'nothing',
  null: 'null',
};

function kind(name: string): string {
  return ARTICLES[name] ?? `a ${name}`;
}

function typeOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && Number.isNaN(input)) return 'NaN';
  return typeof input;
}

function bound(lengthWord: string, valueWord: string, origin: string, limit: number | bigint): string {
  if (origin === 'string') return `Must be ${lengthWord} ${limit} character${limit === 1 ? '' : 's'} long.`;
  if (origin === 'array' || origin === 'set')
    return `Must have ${lengthWord} ${limit} item${limit === 1 ? '' : 's'}.`;
  return `Must be ${valueWord} ${limit}.`;
}

const FORMATS: Record<string, string> = {
  uuid: 'a UUID',
  guid: 'a UUID',
  email: 'an email address',
  url: 'a URL',
  datetime: 'an ISO 8601 date and time in UTC (2026-11-22T01:02:03Z)',
  date: 'an ISO 8601 date (2026-11-22)',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  cidrv4: 'an IPv4 CIDR block',
  cidrv6: 'an IPv6 CIDR block',
};

function formatName(format: string, pattern: string | undefined): string {
  if (format === 'regex' && pattern) return `text matching ${pattern}`;
  return FORMATS[format] ?? `a valid ${format}`;
}

function literal(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : String(value);
}
