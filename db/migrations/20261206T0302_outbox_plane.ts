import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

/** The rules of these triggers, as domain/events/outbox-rules.ts held them when this landed. */
const entered = (type: string, column: string, to: string[]) => ({
  type,
  on: 'UPDATE',
  columns: [column],
  to,
});
const migrationState = (type: string, state: string) => ({
  type,
  on: 'INSERT',
  columns: ['state'],
  to: [state],
});
const RULES = {
  migration: [
    migrationState('migration.requested', 'REQUESTED'),
    migrationState('migration.completed', 'COMPLETED'),
    migrationState('migration.rolled_back', 'ROLLED_BACK'),
    migrationState('migration.recovery_required', 'RECOVERY_REQUIRED'),
  ],
  evacuationStarted: [{ type: 'evacuation.started', on: 'INSERT' }],
  evacuation: [
    entered('evacuation.paused', 'state', ['paused']),
    entered('evacuation.finished', 'state', ['completed', 'cancelled', 'failed']),
  ],
  hypervisor: [
    entered('hypervisor.unreachable', 'status', ['unreachable']),
    entered('hypervisor.online', 'status', ['online']),
  ],
};
const rules = (name: keyof typeof RULES) => sql.lit(JSON.stringify(RULES[name]));

export async function up(db: Kysely<any>): Promise<void> {
  // The plane's events carry no owner (user_id null): only the plane's endpoints receive them.

  // Migrations: recorded from their history, whose line is written in the transaction that moves
  // the state (db/repositories/migration-states.ts), so the event shows the history with its own
  // line, and `previous` the line before. In the instance's stream: its moves are in order with its
  // statuses.
  await sql`
    create function outbox_migration_subject(e migration_events) returns outbox_subject
    language sql stable as $$
      select m.id, m.instance_id, null::uuid, jsonb_build_object(
        'id', m.id, 'instance_id', m.instance_id, 'source_hypervisor_id', m.source_hypervisor_id,
        'target_hypervisor_id', m.target_hypervisor_id, 'mode', m.mode, 'strategy', m.strategy,
        'state', m.state, 'operation_id', m.operation_id, 'workflow_id', m.workflow_id,
        'requested_by', m.requested_by, 'reason', m.reason, 'warnings', m.warnings,
        'network_plan', m.network_plan, 'failed_step', m.failed_step, 'interruption_ms', m.interruption_ms,
        'convergence', m.convergence, 'live_progress', m.live_progress, 'failure', m.failure,
        'recovery', m.recovery, 'retain_source_until', m.retain_source_until, 'created_at', m.created_at,
        'updated_at', m.updated_at, 'finished_at', m.finished_at,
        'source_name', s.name, 'source_location_id', s.location_id,
        'target_name', t.name, 'target_location_id', t.location_id,
        'lease_holder', l.holder, 'lease_expires_at', l.expires_at,
        'history', (select coalesce(jsonb_agg(jsonb_build_object('state', h.state, 'detail', h.detail, 'at', h.at)
                                              order by h.id), '[]'::jsonb)
                      from migration_events h where h.migration_id = m.id)),
        coalesce((select jsonb_build_object('state', p.state) from migration_events p
                   where p.migration_id = e.migration_id and p.id < e.id order by p.id desc limit 1), '{}'::jsonb)
        from migrations m
        join hypervisors s on s.id = m.source_hypervisor_id
        join hypervisors t on t.id = m.target_hypervisor_id
        left join move_leases l on l.move_id = m.id
       where m.id = e.migration_id
    $$`.execute(db);
  await sql`
    create trigger migration_events_outbox after insert on migration_events
    for each row execute function outbox_record_change('migration', ${rules('migration')})`.execute(db);

  // Evacuations, in their hypervisor's stream. The start is taken when its transaction commits
  // (a deferred trigger), so it counts the instances planned with it.
  await sql`
    create function outbox_evacuation_subject(changed evacuations) returns outbox_subject
    language sql stable as $$
      select e.id, e.hypervisor_id, null::uuid, jsonb_build_object(
        'id', e.id, 'hypervisor_id', e.hypervisor_id, 'hypervisor_name', h.name, 'state', e.state,
        'mode', e.mode, 'max_parallel', e.max_parallel, 'max_parallel_per_target', e.max_parallel_per_target,
        'on_failure', e.on_failure, 'max_attempts', e.max_attempts, 'convergence', e.convergence,
        'workflow_id', e.workflow_id, 'requested_by', e.requested_by, 'reason', e.reason,
        'maintenance_before', e.maintenance_before, 'kind', e.kind, 'from_backend', e.from_backend,
        'to_backend', e.to_backend, 'restores', e.restores, 'failure', e.failure,
        'created_at', e.created_at, 'updated_at', e.updated_at, 'finished_at', e.finished_at,
        'counts', (select coalesce(jsonb_object_agg(c.state, c.n), '{}'::jsonb)
                     from (select i.state, count(*) as n from evacuation_items i
                            where i.evacuation_id = e.id group by i.state) c)), null::jsonb
        from evacuations e join hypervisors h on h.id = e.hypervisor_id
       where e.id = changed.id
    $$`.execute(db);
  await sql`
    create constraint trigger evacuations_started_outbox after insert on evacuations
    deferrable initially deferred
    for each row execute function outbox_record_change('evacuation', ${rules('evacuationStarted')})`.execute(
    db,
  );
  await sql`
    create trigger evacuations_outbox after update of state on evacuations
    for each row when (old.state is distinct from new.state)
    execute function outbox_record_change('evacuation', ${rules('evacuation')})`.execute(db);

  // Hypervisors, in their own stream. Every heartbeat writes `status`; only a change is news.
  await sql`
    create function outbox_hypervisor_subject(h hypervisors) returns outbox_subject language sql stable as $$
      select h.id, h.id, null::uuid, jsonb_build_object(
        'id', h.id, 'name', h.name, 'location_id', h.location_id, 'status', h.status,
        'maintenance', h.maintenance, 'capabilities', h.capabilities, 'storage_backends', h.storage_backends,
        'cpu_cores', h.cpu_cores, 'memory_mb', h.memory_mb, 'disk_mb', h.disk_mb,
        'free_cpu_cores', h.free_cpu_cores, 'free_memory_mb', h.free_memory_mb, 'free_disk_mb', h.free_disk_mb,
        'agent_version', h.agent_version, 'reported_capabilities', h.reported_capabilities,
        'withheld_capabilities', h.withheld_capabilities, 'migration_bandwidth_mbps', h.migration_bandwidth_mbps,
        'last_seen_at', h.last_seen_at, 'inventory_reported_at', h.inventory_reported_at,
        'enrolled_at', h.enrolled_at, 'created_at', h.created_at, 'updated_at', h.updated_at), null::jsonb
    $$`.execute(db);
  await sql`
    create trigger hypervisors_outbox after update of status on hypervisors
    for each row when (old.status is distinct from new.status)
    execute function outbox_record_change('hypervisor', ${rules('hypervisor')})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger hypervisors_outbox on hypervisors`.execute(db);
  await sql`drop function outbox_hypervisor_subject`.execute(db);
  await sql`drop trigger evacuations_outbox on evacuations`.execute(db);
  await sql`drop trigger evacuations_started_outbox on evacuations`.execute(db);
  await sql`drop function outbox_evacuation_subject`.execute(db);
  await sql`drop trigger migration_events_outbox on migration_events`.execute(db);
  await sql`drop function outbox_migration_subject`.execute(db);
}
