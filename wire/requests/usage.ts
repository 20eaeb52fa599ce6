import { MAX_USAGE_RANGE_HOURS } from '../../domain/usage/hours.js';
import { PageQuery } from '../schemas.js';
import { z } from '../zod.js';

const hourOf = (which: string, example: string) =>
  z
    .string()
    .datetime({ offset: true })
    .openapi({
      description: `${which}: a whole UTC hour (ISO 8601). The range is at most ${MAX_USAGE_RANGE_HOURS} hours.`,
      example,
    });

/** The range and form of a usage read; the Application API adds whose. */
export const UsageQuery = PageQuery.extend({
  from: hourOf('The first hour read (included)', '2026-11-01T00:00:00Z'),
  to: hourOf('The hour the range ends at (excluded)', '2026-12-01T00:00:00Z'),
  instance: z.string().uuid().optional().openapi({ description: 'Only this instance’s records.' }),
  format: z
    .enum(['json', 'csv'])
    .optional()
    .openapi({ description: '`csv`: the whole range as CSV, as `Accept: text/csv` asks (no paging).' }),
});

export const ApplicationUsageQuery = UsageQuery.extend({
  user: z.string().uuid().optional().openapi({ description: 'Only this user’s records.' }),
});

/** Whether the caller asked for CSV, by `format` or by `Accept`. */
export const wantsCsv = (format: string | undefined, accept: string | undefined): boolean =>
  format === 'csv' || (format === undefined && (accept?.includes('text/csv') ?? false));
