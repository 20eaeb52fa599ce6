import { sql } from 'kysely';
import { QUIET_STATES } from '../../../domain/migrations/attention.js';
import type { MigrationState } from '../../../domain/migrations/states.js';
import type { ListRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';
import { recordsOf } from './migration-records.js';

/** Migrations as administrators list them: by filters, a page at a time, or those needing attention. */

export interface MigrationFilters {
  readonly state?: MigrationState;
  readonly instanceId?: string;
  readonly hypervisorId?: string;
  /** Requested at or after. */
  readonly since?: Date;
  /** Requested before. */
  readonly until?: Date;
}

/** The migrations the filters pick; they combine. */
function filtered(db: Database, filters: MigrationFilters) {
  let base = db.selectFrom('migrations as m');
  if (filters.state) base = base.where('m.state', '=', filters.state);
  if (filters.instanceId) base = base.where('m.instance_id', '=', filters.instanceId);
  if (filters.hypervisorId) {
    const id = filters.hypervisorId;
    base = base.where((eb) =>
      eb.or([eb('m.source_hypervisor_id', '=', id), eb('m.target_hypervisor_id', '=', id)]),
    );
  }
  if (filters.since) base = base.where('m.created_at', '>=', filters.since);
  if (filters.until) base = base.where('m.created_at', '<', filters.until);
  return base;
}

/** A page of whole migration records, newest first, in four queries whatever the page's size. */
const MIGRATION_ORDER: KeysetOrder = { at: 'm.created_at', id: 'm.id', idType: 'uuid' };

/** Newest first, by keyset (db/keyset.ts); the filters combine. */
export async function listMigrations(db: Database, filters: MigrationFilters, request: ListRequest) {
  const base = filtered(db, filters);
  const page = await readKeysetPage(db, MIGRATION_ORDER, request, base.select('m.id'), base);
  const records = await recordsOf(
    db,
    page.rows.map((r) => r.id),
  );
  return { records, total: page.total, totalEstimated: page.totalEstimated, next: page.next };
}

/**
 * Of the migrations the filters pick, those an administrator must look at first
 * (domain/migrations/attention.ts): RECOVERY_REQUIRED, then the stuck ones, each the longest
 * waiting first; at most `limit`, and how many there are in all.
 */
export async function listMigrationsNeedingAttention(
  db: Database,
  filters: MigrationFilters,
  options: { stuckAfterMs: number; limit: number },
) {
  const base = filtered(db, filters).where((eb) =>
    eb.or([
      eb('m.state', '=', 'RECOVERY_REQUIRED'),
      eb.and([
        eb('m.state', 'not in', QUIET_STATES),
        eb('m.updated_at', '<', sql<Date>`now() - ${`${options.stuckAfterMs} milliseconds`}::interval`),
      ]),
    ]),
  );
  const [rows, count] = await Promise.all([
    base
      .select('m.id')
      .orderBy(sql`m.state = 'RECOVERY_REQUIRED'`, 'desc')
      .orderBy('m.updated_at')
      .orderBy('m.id')
      .limit(options.limit)
      .execute(),
    base.select(sql<string>`count(*)`.as('count')).executeTakeFirstOrThrow(),
  ]);
  return {
    records: await recordsOf(
      db,
      rows.map((r) => r.id),
    ),
    total: Number(count.count),
  };
}
