import { parseArgs } from 'node:util';
import { INT4_MAX } from '../domain/input-bounds.js';
import {
  DEFAULT_PER_PAGE,
  decodeCursor,
  type ListRequest,
  MAX_PER_PAGE,
  type PageRequest,
} from '../domain/pagination.js';
import { UsageError } from './command.js';

/** The options every list command takes, beside its filters: as the API's list query. */
const LIST_OPTIONS = {
  json: { type: 'boolean', default: false },
  'per-page': { type: 'string' },
  page: { type: 'string' },
  cursor: { type: 'string' },
} as const;

export const LIST_USAGE = '[--per-page N] [--page N | --cursor C] [--json]';

function count(value: string | undefined, option: string, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new UsageError(`--${option} must be 1 to ${max}`);
  return n;
}

/** Parses a list command's arguments: its own string filters and the list options. */
export function parseListArguments<F extends string>(argv: string[], filters: readonly F[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...LIST_OPTIONS,
      ...Object.fromEntries(filters.map((f) => [f, { type: 'string' as const }])),
    },
  });
  const perPage = count(values['per-page'] as string | undefined, 'per-page', MAX_PER_PAGE, DEFAULT_PER_PAGE);
  const cursorText = values.cursor as string | undefined;
  if (cursorText !== undefined && values.page !== undefined)
    throw new UsageError('give --page or --cursor, not both');
  let request: ListRequest;
  if (cursorText !== undefined) {
    const cursor = decodeCursor(cursorText);
    if (!cursor) throw new UsageError('--cursor is not one a list gave out');
    request = { perPage, cursor };
  } else {
    request = { page: count(values.page as string | undefined, 'page', INT4_MAX, 1), perPage };
  }
  const raw = values as Record<string, unknown>;
  const given = Object.fromEntries(filters.map((f) => [f, raw[f] as string | undefined])) as Record<
    F,
    string | undefined
  >;
  return { json: values.json === true, request, filters: given };
}

export const PAGE_USAGE = '[--per-page N] [--page N] [--json]';

/** Parses the arguments of a list the API pages by number only (no cursor), as its `page` and `per_page`. */
export function parsePageArguments(argv: string[]): { json: boolean; request: PageRequest } {
  const { values } = parseArgs({
    args: argv,
    options: {
      json: LIST_OPTIONS.json,
      'per-page': LIST_OPTIONS['per-page'],
      page: LIST_OPTIONS.page,
    },
  });
  return {
    json: values.json === true,
    request: {
      page: count(values.page, 'page', INT4_MAX, 1),
      perPage: count(values['per-page'], 'per-page', MAX_PER_PAGE, DEFAULT_PER_PAGE),
    },
  };
}

/** A filter that must be one of `allowed`. */
export function enumFilter<T extends string>(
  value: string | undefined,
  option: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${option} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Lines of a text table: columns padded to their widest cell. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
