import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

// A provider's runs as the API shows them: outcomes, never a rotation's candidate.

export const RUN_COLUMNS = [
  'id',
  'provider_id',
  'kind',
  'status',
  'result',
  'http_status',
  'latency_ms',
  'items',
  'started_at',
  'finished_at',
] as const;

export type ProviderRunRow = NonNullable<Awaited<ReturnType<typeof findProviderRun>>>;

export async function findProviderRun(db: Database, providerId: string, runId: string) {
  return db
    .selectFrom('provider_runs')
    .select(RUN_COLUMNS)
    .where('provider_id', '=', providerId)
    .where('id', '=', runId)
    .executeTakeFirst();
}

/** A provider's runs, newest first. */
export async function listProviderRuns(db: Database, providerId: string, page: PageRequest) {
  const query = db.selectFrom('provider_runs').where('provider_id', '=', providerId);
  const [rows, total] = await Promise.all([
    query
      .select(RUN_COLUMNS)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    query.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}
