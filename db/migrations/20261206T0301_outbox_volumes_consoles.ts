import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

/** The rules of these triggers, as domain/events/outbox-rules.ts held them when this landed. */
const RULES = {
  volume: [
    { type: 'volume.created', on: 'INSERT' },
    { type: 'volume.attached', on: 'UPDATE', columns: ['state'], to: ['attached'], from: ['attaching'] },
    {
      type: 'volume.detached',
      on: 'UPDATE',
      columns: ['state'],
      to: ['available'],
      from: ['attached', 'detaching'],
    },
    { type: 'volume.deleted', on: 'DELETE' },
  ],
  console_session: [{ type: 'console.session_ended', on: 'UPDATE', columns: ['state'], to: ['ended'] }],
};
const rules = (resource: keyof typeof RULES) => sql.lit(JSON.stringify(RULES[resource]));

export async function up(db: Kysely<any>): Promise<void> {
  // Volumes: their own stream (a volume outlives the instances it is attached to). A deleted
  // volume's event carries its last row.
  await sql`
    create function outbox_volume_subject(v volumes) returns outbox_subject language sql stable as $$
      select v.id, v.id, v.user_id, jsonb_build_object(
        'id', v.id, 'user_id', v.user_id, 'location_id', v.location_id,
        'location_code', (select l.code from locations l where l.id = v.location_id),
        'name', v.name, 'backend', v.backend, 'size_mb', v.size_mb, 'hypervisor_id', v.hypervisor_id,
        'provisioned_mb', v.provisioned_mb, 'instance_id', v.instance_id, 'state', v.state,
        'created_at', v.created_at, 'updated_at', v.updated_at), null::jsonb
    $$`.execute(db);
  await sql`
    create trigger volumes_outbox after insert or update of state or delete on volumes
    for each row execute function outbox_record_change('volume', ${rules('volume')})`.execute(db);

  // Console sessions, in their instance's stream. The connect token's hash stays out.
  await sql`
    create function outbox_console_session_subject(s console_sessions) returns outbox_subject
    language sql stable as $$
      select s.id, s.instance_id, s.user_id, jsonb_build_object(
        'id', s.id, 'instance_id', s.instance_id, 'user_id', s.user_id, 'kind', s.kind, 'state', s.state,
        'gateway_credential_id', s.gateway_credential_id, 'created_at', s.created_at,
        'connect_by', s.connect_by, 'expires_at', s.expires_at, 'validated_at', s.validated_at,
        'connected_at', s.connected_at, 'disconnected_at', s.disconnected_at,
        'last_heartbeat_at', s.last_heartbeat_at, 'ended_at', s.ended_at, 'end_reason', s.end_reason),
        null::jsonb
    $$`.execute(db);
  await sql`
    create trigger console_sessions_outbox after update of state on console_sessions
    for each row when (old.state is distinct from new.state)
    execute function outbox_record_change('console_session', ${rules('console_session')})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger console_sessions_outbox on console_sessions`.execute(db);
  await sql`drop function outbox_console_session_subject`.execute(db);
  await sql`drop trigger volumes_outbox on volumes`.execute(db);
  await sql`drop function outbox_volume_subject`.execute(db);
}
