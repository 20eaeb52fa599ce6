import { sql } from 'kysely';
import { QUIET_STATES } from '../../../domain/migrations/attention.js';
import type { ConvergencePolicy } from '../../../domain/migrations/convergence.js';
import type { Finding, WarningCode } from '../../../domain/migrations/preflight.js';
import type { MigrationMode, MigrationState, MigrationStrategy } from '../../../domain/migrations/states.js';
import type { ListRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';
import { endConsoleSessions } from '../instances/console-endings.js';
import { moveVolumesToTarget } from '../storage/volume-hosts.js';

export interface NewMigration {
  readonly id: string;
  readonly instanceId: string;
  readonly sourceHypervisorId: string;
  readonly targetHypervisorId: string;
  readonly mode: MigrationMode;
  readonly strategy: MigrationStrategy;
  readonly operationId: string;
  readonly workflowId: string;
  readonly requestedBy: string;
  readonly reason: string | null;
  readonly warnings: readonly Finding<WarningCode>[];
  readonly networkPlan: Record<string, unknown>;
  /** The convergence policy in force (a live move's; recorded for a cold one too, which ignores it). */
  readonly convergence?: ConvergencePolicy;
}

export async function insertMigration(db: Database, migration: NewMigration): Promise<void> {
  await db
    .insertInto('migrations')
    .values({
      id: migration.id,
      instance_id: migration.instanceId,
      source_hypervisor_id: migration.sourceHypervisorId,
      target_hypervisor_id: migration.targetHypervisorId,
      mode: migration.mode,
      strategy: migration.strategy,
      operation_id: migration.operationId,
      workflow_id: migration.workflowId,
      requested_by: migration.requestedBy,
      reason: migration.reason,
      warnings: JSON.stringify(migration.warnings),
      network_plan: JSON.stringify(migration.networkPlan),
      convergence: migration.convergence ? JSON.stringify(migration.convergence) : null,
    })
    .execute();
  await db
    .insertInto('migration_events')
    .values({ migration_id: migration.id, state: 'REQUESTED' })
    .execute();
}

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

/** The whole records of these migrations, in the order of `ids`; one deleted meanwhile is left out. */
async function recordsOf(db: Database, ids: readonly string[]): Promise<MigrationRecord[]> {
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

/**
 * COMMITTING (DESIGN.md): the single transaction that makes the target authoritative. The instance
 * moves to the target, its volumes with it, with the room to grow its guest has; the source's reservations are released and the
 * target's become the instance's and the volumes'. The caller adds the state, the lease and the operation to the same transaction.
 */
export async function moveInstanceToTarget(db: Database, migrationId: string): Promise<void> {
  const migration = await db
    .selectFrom('migrations')
    .select(['instance_id', 'source_hypervisor_id', 'target_hypervisor_id'])
    .where('id', '=', migrationId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('instances')
    .set({
      hypervisor_id: migration.target_hypervisor_id,
      // The room to grow is kept: it is the guest process's, and the target starts its guest with
      // exactly the source's room (maxcpus, memory slots, maxmem); the target's inventory reports
      // it from there on (services/agents/inventory-room.ts).
      updated_at: sql`now()`,
    })
    .where('id', '=', migration.instance_id)
    .execute();
  await db
    .updateTable('reservations')
    .set({ released_at: sql`now()` })
    .where('instance_id', '=', migration.instance_id)
    .where('hypervisor_id', '=', migration.source_hypervisor_id)
    .where('released_at', 'is', null)
    .execute();
  await db
    .updateTable('reservations')
    .set({ purpose: 'instance' })
    .where('instance_id', '=', migration.instance_id)
    .where('hypervisor_id', '=', migration.target_hypervisor_id)
    .where('purpose', '=', 'migration')
    .where('volume_id', 'is', null)
    .where('released_at', 'is', null)
    .execute();
  await moveVolumesToTarget(db, {
    instanceId: migration.instance_id,
    sourceId: migration.source_hypervisor_id,
    targetId: migration.target_hypervisor_id,
  });
  // A console relays from the source's guest: it ends with the move; a new session reaches the target.
  await endConsoleSessions(db, 'instance_migrated', (eb) => eb('instance_id', '=', migration.instance_id));
}

/** A rolled-back migration gives back the room it held on the target. */
export async function releaseTargetReservation(db: Database, migrationId: string): Promise<void> {
  const migration = await db
    .selectFrom('migrations')
    .select(['instance_id', 'target_hypervisor_id'])
    .where('id', '=', migrationId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('reservations')
    .set({ released_at: sql`now()` })
    .where('instance_id', '=', migration.instance_id)
    .where('hypervisor_id', '=', migration.target_hypervisor_id)
    .where('purpose', '=', 'migration')
    .where('released_at', 'is', null)
    .execute();
}

/** The interruption the guest had in the move, measured by its run (SPEC.md §3 "Migration modes"). */
export async function recordMigrationInterruption(
  db: Database,
  migrationId: string,
  interruptionMs: number,
): Promise<void> {
  await db
    .updateTable('migrations')
    .set({ interruption_ms: interruptionMs })
    .where('id', '=', migrationId)
    .execute();
}
