import type { Context } from 'hono';
import type { UsageFilters } from '../../db/repositories/usage/usage-records.js';
import type { AppEnv } from '../../http/context.js';
import { exportUsage, readUsagePage } from '../../services/usage/read.js';
import { wantsCsv } from '../../wire/requests/usage.js';
import { listBody } from '../../wire/schemas.js';
import {
  serializeUsageRecord,
  USAGE_CSV_EXAMPLE,
  USAGE_CSV_HEADER,
  UsageRecordList,
  usageCsvLine,
} from '../../wire/serializers/usage/usage-record.js';
import { z } from '../../wire/zod.js';

/** The 200 of a usage read: a page of records as JSON, or the whole range as CSV. */
export const usageOkResponse = {
  200: {
    description: 'A page of usage records (application/json), or every record of the range (text/csv).',
    content: {
      'application/json': { schema: UsageRecordList },
      'text/csv': {
        schema: z.string().openapi({
          description:
            'A header line, then one line per record in the order written; a cell starting with `=`, `+`, ' +
            '`-` or `@` is prefixed with `\'` (docs/usage.md "CSV").',
          example: USAGE_CSV_EXAMPLE,
        }),
      },
    },
  },
};

/** Answers a usage read in the form asked: CSV by `format=csv` or `Accept: text/csv`, else JSON. */
export async function answerUsage(
  c: Context<AppEnv>,
  filters: UsageFilters,
  query: { format?: 'json' | 'csv'; page: number; per_page: number },
) {
  const deps = c.get('deps');
  if (wantsCsv(query.format, c.req.header('accept'))) {
    return c.body(exportUsage(deps, filters, usageCsvLine, USAGE_CSV_HEADER), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="usage.csv"',
    });
  }
  const request = { page: query.page, perPage: query.per_page };
  const { rows, total } = await readUsagePage(deps, filters, request);
  return c.json(listBody(request, total, rows.map(serializeUsageRecord)), 200);
}
