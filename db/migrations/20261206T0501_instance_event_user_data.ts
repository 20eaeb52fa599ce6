import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const subject = (userData: boolean) => sql`
  create or replace function outbox_instance_subject(i instances) returns outbox_subject language sql stable as $$
    select i.id, i.id, i.user_id, jsonb_build_object(
      'id', i.id, 'user_id', i.user_id, 'hypervisor_id', i.hypervisor_id, 'name', i.name,
      'hostname', i.hostname, 'status', i.status, 'cpu_cores', i.cpu_cores, 'memory_mb', i.memory_mb,
      'disk_mb', i.disk_mb, 'primary_ipv4', i.primary_ipv4, 'primary_ipv6', i.primary_ipv6,
      'virtualization', i.virtualization, 'boot_order', i.boot_order, 'timezone', i.timezone,
      'guest_drift', i.guest_drift, 'guest_drift_since', i.guest_drift_since,
      ${sql.raw(
        userData
          ? `'user_data_kind', i.user_data_kind, 'user_data_bytes', i.user_data_bytes, 'user_data_sha256', i.user_data_sha256,`
          : '',
      )}
      'created_at', i.created_at, 'updated_at', i.updated_at), null::jsonb
  $$`;

export async function up(db: Kysely<any>): Promise<void> {
  // An instance's event shows its user-data summary as its envelope does (kind, size, SHA-256;
  // never the content, which lives sealed in instance_user_data).
  await subject(true).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await subject(false).execute(db);
}
