import { sql } from 'kysely';
import { QUIET_STATES } from '../../../domain/migrations/attention.js';
import type { MigrationState } from '../../../domain/migrations/states.js';
import type { Database } from '../../database.js';

/** Migration health for operators: counts by state, stuck runs, expired leases. */
export async function findMigrationHealth(db: Database, stuckAfterMs: number) {
  const [byState, stuck, expiredLeases] = await Promise.all([
    db
      .selectFrom('migrations')
      .select(['state', sql<string>`count(*)`.as('count')])
      .groupBy('state')
      .execute(),
    db
      .selectFrom('migrations')
      .select(['id', 'state', 'updated_at'])
      .where('state', 'not in', QUIET_STATES)
      .where('updated_at', '<', sql<Date>`now() - ${`${stuckAfterMs} milliseconds`}::interval`)
      .orderBy('updated_at')
      .execute(),
    db
      .selectFrom('move_leases')
      .select(['instance_id', 'move_id', 'holder', 'expires_at'])
      .where('expires_at', '<=', sql<Date>`now()`)
      .execute(),
  ]);
  return {
    byState: Object.fromEntries(byState.map((r) => [r.state, Number(r.count)])) as Partial<
      Record<MigrationState, number>
    >,
    stuck,
    expiredLeases,
  };
}
