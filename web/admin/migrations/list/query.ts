import { z } from 'zod';
import { INT4_MAX } from '../../../../domain/input-bounds.js';
import type { PageRequest } from '../../../../domain/pagination.js';
import {
  type MigrationFilterQuery,
  migrationFilterFields,
} from '../../../../wire/requests/migration-filters.js';

/** Rows of a list page: enough for a screen, few enough to refresh every few seconds. */
export const PER_PAGE = 25;

/** A `datetime-local` input's value (no seconds, no zone), read as UTC as the form says. */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const asUtc = (value: string) =>
  LOCAL_TIME.test(value) ? `${value.length === 16 ? `${value}:00` : value}Z` : value;

const ListPageQuery = z.object({
  ...migrationFilterFields,
  page: z.coerce.number().int().min(1).max(INT4_MAX).optional(),
});

export interface ListPageInput {
  /** The filters as the form shows them again (what was typed, empty for none). */
  readonly form: Readonly<Record<'state' | 'instance' | 'hypervisor' | 'since' | 'until', string>>;
  readonly filters: MigrationFilterQuery;
  readonly request: PageRequest;
  /** Field names and what is wrong with each: the form says so and the list stays empty. */
  readonly problems: readonly { field: string; detail: string }[];
}

/** The list page's query: an empty field is no filter; a time is UTC with or without its zone. */
export function readListQuery(query: Record<string, string>): ListPageInput {
  const form = {
    state: query.state ?? '',
    instance: (query.instance ?? '').trim(),
    hypervisor: query.hypervisor ?? '',
    since: query.since ?? '',
    until: query.until ?? '',
  };
  const given = Object.fromEntries(
    Object.entries({ ...form, page: query.page ?? '' }).filter(([, value]) => value !== ''),
  );
  const parsed = ListPageQuery.safeParse({
    ...given,
    ...(given.since ? { since: asUtc(given.since) } : {}),
    ...(given.until ? { until: asUtc(given.until) } : {}),
  });
  if (!parsed.success) {
    return {
      form,
      filters: {},
      request: { page: 1, perPage: PER_PAGE },
      problems: parsed.error.issues.map((issue) => ({
        field: String(issue.path[0] ?? 'query'),
        detail:
          issue.path[0] === 'since' || issue.path[0] === 'until' ? 'Not a date and time.' : issue.message,
      })),
    };
  }
  const { page, ...filters } = parsed.data;
  return { form, filters, request: { page: page ?? 1, perPage: PER_PAGE }, problems: [] };
}

/** The list's address with these filters and page; `part` asks for the live region alone. */
export function listHref(
  base: string,
  form: ListPageInput['form'],
  extra: Record<string, string> = {},
): string {
  const params = new URLSearchParams(
    Object.entries({ ...form, ...extra }).filter(([, value]) => value !== ''),
  ).toString();
  return params ? `${base}?${params}` : base;
}
