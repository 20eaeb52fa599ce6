import type { Database } from '../../database.js';

/**
 * A migration's whole record, as show and list answer it: the row, both hypervisors' names and
 * locations, its lease and its state history.
 */

const MIGRATION_COLUMNS = [
  'm.id',
  'm.instance_id',
  'm.source_hypervisor_id',
  'm.target_hypervisor_id',
  'm.mode',
  'm.strategy',
  'm.state',
  'm.operation_id',
  'm.workflow_id',
  'm.requested_by',
  'm.reason',
  'm.warnings',
  'm.network_plan',
  'm.failed_step',
  'm.interruption_ms',
  'm.convergence',
  'm.live_progress',
  'm.failure',
  'm.recovery',
  'm.retain_source_until',
  'm.created_at',
  'm.updated_at',
  'm.finished_at',
] as const;

/** A migration with both hypervisors' names and locations and its lease: what show and list answer. */
const migrationRecords = (db: Database) =>
  db
    .selectFrom('migrations as m')
    .innerJoin('hypervisors as s', 's.id', 'm.source_hypervisor_id')
    .innerJoin('hypervisors as t', 't.id', 'm.target_hypervisor_id')
    .leftJoin('move_leases as l', 'l.move_id', 'm.id')
    .select([
      ...MIGRATION_COLUMNS,
      's.name as source_name',
      's.location_id as source_location_id',
      't.name as target_name',
      't.location_id as target_location_id',
      'l.holder as lease_holder',
      'l.expires_at as lease_expires_at',
    ]);

/** The state history of each of the migrations, oldest first. */
async function historiesOf(db: Database, migrationIds: readonly string[]) {
  const events =
    migrationIds.length === 0
      ? []
      : await db
          .selectFrom('migration_events')
          .select(['migration_id', 'state', 'detail', 'at'])
          .where('migration_id', 'in', migrationIds)
          .orderBy('id')
          .execute();
  const histories = new Map<string, Omit<(typeof events)[number], 'migration_id'>[]>(
    migrationIds.map((id) => [id, []]),
  );
  for (const { migration_id, ...event } of events) histories.get(migration_id)?.push(event);
  return histories;
}

export async function findMigration(db: Database, migrationId: string) {
  const row = await migrationRecords(db).where('m.id', '=', migrationId).executeTakeFirst();
  if (!row) return undefined;
  const history = (await historiesOf(db, [row.id])).get(row.id) ?? [];
  return { ...row, history };
}

export type MigrationRecord = NonNullable<Awaited<ReturnType<typeof findMigration>>>;

/** The whole records of these migrations, in the order of `ids`; one deleted meanwhile is left out. */
export async function recordsOf(db: Database, ids: readonly string[]): Promise<MigrationRecord[]> {
  const [found, histories] = await Promise.all([
    ids.length === 0 ? [] : migrationRecords(db).where('m.id', 'in', ids).execute(),
    historiesOf(db, ids),
  ]);
  const byId = new Map(found.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ ...row, history: histories.get(id) ?? [] }] : [];
  });
}
