import { sql } from 'kysely';
import { LIVE_TASK_STATUSES } from '../../../domain/agent-protocol.js';
import { LiveProgressRecord } from '../../../domain/migrations/live-progress.js';
import type { Database } from '../../database.js';

// What the plane looks like now, read at each Prometheus scrape (services/plane-metrics.ts): small
// grouped counts, each over an index or a small table.

/** Agent tasks waiting for their agent, per hypervisor: how many and how long the oldest has waited. */
export function listQueuedTasksByHypervisor(db: Database) {
  return db
    .selectFrom('agent_tasks as t')
    .innerJoin('hypervisors as h', 'h.id', 't.hypervisor_id')
    .select([
      'h.name as hypervisor',
      sql<string>`count(*)`.as('queued'),
      sql<number>`extract(epoch from now() - min(t.created_at))::float8`.as('oldest_seconds'),
    ])
    .where('t.status', '=', 'queued')
    .groupBy('h.name')
    .execute();
}

/** Every hypervisor's status and how long since its agent was last heard (null: never). */
export function listHypervisorLiveness(db: Database) {
  return db
    .selectFrom('hypervisors')
    .select([
      'name',
      'status',
      sql<number | null>`extract(epoch from now() - last_seen_at)::float8`.as('silent_seconds'),
    ])
    .execute();
}

/** Instance operations by kind and state: the ones in flight and every one that finished. */
export function listOperationCounts(db: Database) {
  return db
    .selectFrom('instance_operations')
    .select(['kind', 'state', sql<string>`count(*)`.as('count')])
    .groupBy(['kind', 'state'])
    .execute();
}

/** Migrations by state. */
export function listMigrationCounts(db: Database) {
  return db
    .selectFrom('migrations')
    .select(['state', sql<string>`count(*)`.as('count')])
    .groupBy('state')
    .execute();
}

/**
 * The latest figures of each live move under way: its figures came from a `migration.live` task
 * that still runs (a move that ended, failed or was given up has none; nor has one whose end is
 * recorded). Few rows, over a partial index.
 */
export async function listLiveMoveFigures(db: Database) {
  const rows = await db
    .selectFrom('migrations as m')
    .innerJoin('agent_tasks as t', (join) =>
      join.on(sql<boolean>`t.id = (m.live_progress->>'task_id')::uuid`),
    )
    .select(['m.id', 'm.live_progress'])
    .where('m.finished_at', 'is', null)
    .where('m.live_progress', 'is not', null)
    .where(sql<boolean>`(m.live_progress->>'total_ms') is null`)
    .where(sql<boolean>`jsonb_typeof(m.live_progress->'figures') = 'object'`)
    .where('t.status', 'in', LIVE_TASK_STATUSES)
    .execute();
  return rows.flatMap((row) => {
    // Checked against its shape, as the serializer checks it: a row that does not hold it shows none.
    const parsed = LiveProgressRecord.safeParse(row.live_progress);
    return parsed.success && parsed.data.figures ? [{ migration: row.id, figures: parsed.data.figures }] : [];
  });
}
