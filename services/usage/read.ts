import {
  listUsageRecords,
  type UsageCursor,
  type UsageFilters,
  type UsageRecordRow,
  usageRecordsAfter,
} from '../../db/repositories/usage/usage-records.js';
import { ApiError } from '../../domain/errors.js';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import { usageRangeVerdict } from '../../domain/usage/hours.js';
import type { ServiceDeps } from '../context.js';

/** How many records an export reads at a time. */
const EXPORT_BATCH = 1000;

export interface UsageRead {
  readonly userId?: string;
  readonly instanceId?: string;
  readonly from: string;
  readonly to: string;
}

/** The filters of a read whose range the plane answers; otherwise SVC-USAGE-422, and nothing is read. */
export function usageFiltersOf(read: UsageRead): UsageFilters {
  const from = new Date(read.from);
  const to = new Date(read.to);
  const verdict = usageRangeVerdict(from, to);
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
  return { userId: read.userId, instanceId: read.instanceId, from, to };
}

export function readUsagePage(deps: Pick<ServiceDeps, 'db'>, filters: UsageFilters, page: PageRequest) {
  return listUsageRecords(deps.db, filters, { offset: offsetOf(page), limit: page.perPage });
}

/**
 * Every record of the range, by hour and then as written (as the pages list them), read a batch at a time as the consumer takes
 * them, so an export of a month holds one batch in memory, not the month.
 */
export function exportUsage(
  deps: Pick<ServiceDeps, 'db'>,
  filters: UsageFilters,
  line: (row: UsageRecordRow) => string,
  header: string,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: UsageCursor | null = null;
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(header));
        return;
      }
      const rows = await usageRecordsAfter(deps.db, filters, after, EXPORT_BATCH);
      if (rows.length > 0) {
        const last = rows[rows.length - 1]!;
        after = { hour: last.hour, id: last.id };
        controller.enqueue(encoder.encode(rows.map(line).join('')));
      }
      if (rows.length < EXPORT_BATCH) controller.close();
    },
  });
}
