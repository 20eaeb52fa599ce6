import { sql } from 'kysely';
import type { HypervisorFacts, InstanceFacts } from '../../domain/migrations/preflight.js';
import {
  type MigrationMode,
  type MigrationState,
  type MigrationStrategy,
  statesBefore,
} from '../../domain/migrations/states.js';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import type { Database } from '../database.js';

/** What preflight needs of an instance: its state, its needs, its holds. */
export async function instanceMigrationFacts(db: Database, instanceId: string) {
  const row = await db
    .selectFrom('instances as i')
    .select([
      'i.id',
      'i.user_id',
      'i.status',
      'i.hypervisor_id',
      'i.operation_id',
      'i.host_requirements',
      'i.storage_backend',
      'i.cpu_cores',
      'i.memory_mb',
      'i.disk_mb',
      'i.primary_ipv4',
      'i.primary_ipv6',
      'i.hostname',
      sql<boolean>`exists (select 1 from migration_leases l where l.instance_id = i.id and l.expires_at > now())`.as(
        'lease_held',
      ),
      sql<boolean>`exists (select 1 from migrations m where m.instance_id = i.id
                             and m.state in ('COMPLETED', 'CLEANING_UP'))`.as('cleanup_pending'),
    ])
    .where('i.id', '=', instanceId)
    .where('i.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const facts: InstanceFacts = {
    status: row.status,
    placed: row.hypervisor_id !== null,
    operationRunning: row.operation_id !== null,
    leaseHeld: row.lease_held,
    cleanupPending: row.cleanup_pending,
    hostRequirements: row.host_requirements,
    storageBackend: row.storage_backend,
    resources: { cpu_cores: row.cpu_cores, memory_mb: row.memory_mb, disk_mb: row.disk_mb },
  };
  return { row, facts };
}

interface HypervisorFactRow {
  id: string;
  name: string;
  location_id: string;
  status: string;
  maintenance: boolean;
  capabilities: string[];
  storage_backends: string[];
  architecture: string;
  virtualization: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  reserved_cpu: number;
  reserved_memory: number;
  reserved_disk: number;
}

/** Every hypervisor as migration compatibility judges it, with what its reservations hold. */
export async function hypervisorMigrationFacts(db: Database): Promise<HypervisorFacts[]> {
  const { rows } = await sql<HypervisorFactRow>`
    select h.id, h.name, h.location_id, h.status, h.maintenance,
           -- What the administrator configured, less what the agent says its host cannot do
           -- (QEMU without working live migration, no KVM for CPU passthrough) once it has said.
           case when h.reported_capabilities is null then h.capabilities
                else (select coalesce(jsonb_agg(c.value), '[]'::jsonb)
                        from jsonb_array_elements(h.capabilities) c
                       where h.reported_capabilities @> jsonb_build_array(c.value))
           end as capabilities,
           h.storage_backends,
           h.architecture, h.virtualization, h.cpu_cores, h.memory_mb, h.disk_mb,
           coalesce(r.cpu, 0)::int as reserved_cpu, coalesce(r.memory, 0)::int as reserved_memory,
           coalesce(r.disk, 0)::float8 as reserved_disk
      from hypervisors h
      left join lateral (
        select sum(cpu_cores) as cpu, sum(memory_mb) as memory, sum(disk_mb) as disk
          from reservations where hypervisor_id = h.id and released_at is null
      ) r on true
     order by h.name`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    locationId: r.location_id,
    status: r.status,
    maintenance: r.maintenance,
    capabilities: r.capabilities,
    storageBackends: r.storage_backends,
    architecture: r.architecture,
    virtualization: r.virtualization,
    total: { cpu_cores: r.cpu_cores, memory_mb: r.memory_mb, disk_mb: r.disk_mb },
    reserved: { cpu_cores: r.reserved_cpu, memory_mb: r.reserved_memory, disk_mb: r.reserved_disk },
  }));
}

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
  readonly warnings: readonly { code: string; detail: string }[];
  readonly networkPlan: Record<string, unknown>;
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
    })
    .execute();
  await db
    .insertInto('migration_events')
    .values({ migration_id: migration.id, state: 'REQUESTED' })
    .execute();
}

/**
 * Takes the instance's migration lease: the one row per instance is the exclusivity (SPEC.md §3
 * rule 1). An expired lease of an earlier holder is taken over; a live one is refused (false).
 */
export async function takeMigrationLease(
  db: Database,
  lease: { instanceId: string; migrationId: string; holder: string; ttlMs: number },
): Promise<boolean> {
  const row = await db
    .insertInto('migration_leases')
    .values({
      instance_id: lease.instanceId,
      migration_id: lease.migrationId,
      holder: lease.holder,
      expires_at: sql`now() + ${`${lease.ttlMs} milliseconds`}::interval`,
    })
    .onConflict((oc) =>
      oc
        .column('instance_id')
        .doUpdateSet({
          migration_id: lease.migrationId,
          holder: lease.holder,
          expires_at: sql`now() + ${`${lease.ttlMs} milliseconds`}::interval`,
          created_at: sql`now()`,
        })
        .where('migration_leases.expires_at', '<=', sql<Date>`now()`),
    )
    .returning('instance_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Renewed by the running workflow; false when the lease is no longer this migration's. */
export async function renewMigrationLease(
  db: Database,
  migrationId: string,
  ttlMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('migration_leases')
    .set({ expires_at: sql`now() + ${`${ttlMs} milliseconds`}::interval` })
    .where('migration_id', '=', migrationId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function releaseMigrationLease(db: Database, migrationId: string): Promise<void> {
  await db.deleteFrom('migration_leases').where('migration_id', '=', migrationId).execute();
}

/** Records a state change with its time; `fields` are the migration columns the change sets. */
export async function recordMigrationState(
  db: Database,
  migrationId: string,
  state: MigrationState,
  detail: Record<string, unknown> = {},
  fields: {
    failed_step?: string | null;
    failure?: Record<string, unknown> | null;
    recovery?: Record<string, unknown> | null;
    retainSourceMs?: number;
    finished?: boolean;
  } = {},
): Promise<void> {
  // The state and its history line together: a reader polling the state sees its line too.
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => recordMigrationState(trx, migrationId, state, detail, fields));
    return;
  }
  // A compare-and-set on the states the machine allows before this one (domain/migrations/
  // states.ts): a write the table does not allow changes nothing and fails loudly.
  const updated = await db
    .updateTable('migrations')
    .set({
      state,
      updated_at: sql`now()`,
      ...(fields.failed_step === undefined ? {} : { failed_step: fields.failed_step }),
      ...(fields.failure === undefined ? {} : { failure: fields.failure && JSON.stringify(fields.failure) }),
      ...(fields.recovery === undefined
        ? {}
        : { recovery: fields.recovery && JSON.stringify(fields.recovery) }),
      ...(fields.retainSourceMs === undefined
        ? {}
        : { retain_source_until: sql`now() + ${`${fields.retainSourceMs} milliseconds`}::interval` }),
      ...(fields.finished ? { finished_at: sql`now()` } : {}),
    })
    .where('id', '=', migrationId)
    .where(
      sql<boolean>`state = any(case when strategy = 'live' then ${statesBefore(state, 'live')}::text[] else ${statesBefore(state, 'cold')}::text[] end)`,
    )
    .returning('id')
    .executeTakeFirst();
  if (!updated) {
    const found = await db
      .selectFrom('migrations')
      .select(['state'])
      .where('id', '=', migrationId)
      .executeTakeFirst();
    throw new IllegalMigrationTransition(migrationId, found?.state, state);
  }
  // A bookkeeping step may run twice (a local activity is at-least-once): the same state in a
  // row is one history line, its detail merged.
  await sql`
    insert into migration_events (migration_id, state, detail)
    select ${migrationId}, ${state}, ${JSON.stringify(detail)}::jsonb
     where (select state from migration_events where migration_id = ${migrationId} order by id desc limit 1)
           is distinct from ${state}`.execute(db);
  if (Object.keys(detail).length > 0) await annotateMigrationState(db, migrationId, state, detail);
}

/** A write of a migration state that the state machine does not allow from the state it is in. */
export class IllegalMigrationTransition extends Error {
  constructor(
    readonly migrationId: string,
    readonly from: MigrationState | undefined,
    readonly to: MigrationState,
  ) {
    super(`migration ${migrationId}: ${from ?? 'no such migration'} -> ${to} is not an allowed transition`);
    this.name = 'IllegalMigrationTransition';
  }
}

/** What a step found out (a checksum, the live downtime), added to its state's latest history line. */
export async function annotateMigrationState(
  db: Database,
  migrationId: string,
  state: MigrationState,
  detail: Record<string, unknown>,
): Promise<void> {
  await sql`
    update migration_events set detail = detail || ${JSON.stringify(detail)}::jsonb
     where id = (select max(id) from migration_events where migration_id = ${migrationId} and state = ${state})`.execute(
    db,
  );
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
    .leftJoin('migration_leases as l', 'l.migration_id', 'm.id')
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
}

/** A page of whole migration records, newest first, in four queries whatever the page's size. */
export async function listMigrations(db: Database, filters: MigrationFilters, page: PageRequest) {
  let base = db.selectFrom('migrations as m');
  if (filters.state) base = base.where('m.state', '=', filters.state);
  if (filters.instanceId) base = base.where('m.instance_id', '=', filters.instanceId);
  if (filters.hypervisorId) {
    const id = filters.hypervisorId;
    base = base.where((eb) =>
      eb.or([eb('m.source_hypervisor_id', '=', id), eb('m.target_hypervisor_id', '=', id)]),
    );
  }
  const [rows, total] = await Promise.all([
    base
      .select('m.id')
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  const ids = rows.map((r) => r.id);
  const [found, histories] = await Promise.all([
    ids.length === 0 ? [] : migrationRecords(db).where('m.id', 'in', ids).execute(),
    historiesOf(db, ids),
  ]);
  const byId = new Map(found.map((row) => [row.id, row]));
  // In the page's order; a migration deleted between the queries is left out.
  const records: MigrationRecord[] = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ ...row, history: histories.get(id) ?? [] }] : [];
  });
  return { records, total: Number(total.total) };
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
      .where('state', 'not in', ['CLEANED_UP', 'ROLLED_BACK', 'RECOVERY_REQUIRED', 'COMPLETED'])
      .where('updated_at', '<', sql<Date>`now() - ${`${stuckAfterMs} milliseconds`}::interval`)
      .orderBy('updated_at')
      .execute(),
    db
      .selectFrom('migration_leases')
      .select(['instance_id', 'migration_id', 'holder', 'expires_at'])
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

export async function insertTransferToken(
  db: Database,
  token: {
    migrationId: string;
    disk: string;
    tokenHash: string;
    receiverHypervisorId: string;
    ttlMs: number;
  },
): Promise<void> {
  await db
    .insertInto('transfer_tokens')
    .values({
      migration_id: token.migrationId,
      disk: token.disk,
      token_hash: token.tokenHash,
      receiver_hypervisor_id: token.receiverHypervisorId,
      expires_at: sql`now() + ${`${token.ttlMs} milliseconds`}::interval`,
    })
    .execute();
}

/** Where the sending side can be reached for this disk, sealed, for the redeemer only. */
export async function recordTransferEndpoint(
  db: Database,
  migrationId: string,
  disk: string,
  endpointSealed: string,
): Promise<void> {
  await db
    .updateTable('transfer_tokens')
    .set({ endpoint_sealed: endpointSealed })
    .where('migration_id', '=', migrationId)
    .where('disk', '=', disk)
    .execute();
}

/**
 * Redeems a token once: only by the receiving hypervisor, before it expires, not voided, never
 * twice (the compare-and-set on `redeemed_at`). Undefined when any of these fails.
 */
export async function redeemTransferToken(db: Database, tokenHash: string, hypervisorId: string) {
  return db
    .updateTable('transfer_tokens')
    .set({ redeemed_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('receiver_hypervisor_id', '=', hypervisorId)
    .where('redeemed_at', 'is', null)
    .where('voided_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where('endpoint_sealed', 'is not', null)
    .returning(['migration_id', 'disk', 'endpoint_sealed'])
    .executeTakeFirst();
}

/** A migration that ended voids its tokens: none can be redeemed afterwards. */
export async function voidTransferTokens(db: Database, migrationId: string): Promise<void> {
  await db
    .updateTable('transfer_tokens')
    .set({ voided_at: sql`now()` })
    .where('migration_id', '=', migrationId)
    .where('voided_at', 'is', null)
    .execute();
}

/**
 * COMMITTING (DESIGN.md): the single transaction that makes the target authoritative. The instance
 * moves to the target; the source's reservation is released and the target's becomes the
 * instance's. The caller adds the state, the lease and the operation to the same transaction.
 */
export async function moveInstanceToTarget(db: Database, migrationId: string): Promise<void> {
  const migration = await db
    .selectFrom('migrations')
    .select(['instance_id', 'source_hypervisor_id', 'target_hypervisor_id'])
    .where('id', '=', migrationId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('instances')
    .set({ hypervisor_id: migration.target_hypervisor_id, updated_at: sql`now()` })
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
    .where('released_at', 'is', null)
    .execute();
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
