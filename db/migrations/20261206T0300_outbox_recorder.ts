import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

/** The rules of one table's trigger, as domain/events/catalogue.ts's OUTBOX_RULES held them when this landed. */
const RULES = {
  instance: [{ type: 'instance.resized', on: 'UPDATE', columns: ['cpu_cores', 'memory_mb', 'disk_mb'] }],
  backup: [
    { type: 'backup.available', on: 'UPDATE', columns: ['state'], from: ['creating'], to: ['available'] },
    { type: 'backup.failed', on: 'UPDATE', columns: ['state'], from: ['creating'], to: ['failed'] },
  ],
  snapshot: [
    { type: 'snapshot.available', on: 'UPDATE', columns: ['state'], from: ['creating'], to: ['available'] },
  ],
};

export async function up(db: Kysely<any>): Promise<void> {
  // docs/events.md "Recorded with the change": one recorder for every table whose changes are
  // events. A table's trigger names its resource and its rules (JSON, the catalogue's OUTBOX_RULES
  // for that resource; a test holds the two equal); the resource's subject function says what the
  // event carries: the resource's id, its stream, its owner (null for the plane's own resources,
  // which only the plane's endpoints receive) and the columns its presenter reads, named one by
  // one so no secret column can slip in. A rule fires on its operation when one of its columns
  // changed, the first of them from a value in `from` to one in `to` (each when given); the event's
  // `previous` is the old values of those of its columns that changed (Stripe's
  // previous_attributes), or what the subject says it replaced.
  await sql`
    create type outbox_subject as (resource_id uuid, stream_id uuid, user_id uuid, object jsonb, previous jsonb)`.execute(
    db,
  );
  await sql`
    create function outbox_record_change() returns trigger language plpgsql as $$
    declare
      resource text := tg_argv[0];
      rule jsonb;
      after_row jsonb := case when tg_op = 'DELETE' then '{}'::jsonb else to_jsonb(new) end;
      before_row jsonb := case when tg_op = 'INSERT' then '{}'::jsonb else to_jsonb(old) end;
      watched text[];
      subject outbox_subject;
      read boolean := false;
    begin
      for rule in select value from jsonb_array_elements(tg_argv[1]::jsonb) loop
        continue when rule->>'on' <> tg_op;
        watched := array(select jsonb_array_elements_text(coalesce(rule->'columns', '[]'::jsonb)));
        continue when tg_op = 'UPDATE' and not exists (
          select 1 from unnest(watched) c where after_row->c is distinct from before_row->c);
        continue when rule ? 'to' and not coalesce(rule->'to' ? (after_row->>watched[1]), false);
        continue when rule ? 'from' and not coalesce(rule->'from' ? (before_row->>watched[1]), false);
        if not read then
          if tg_op = 'DELETE' then
            execute format('select (%I($1)).*', 'outbox_' || resource || '_subject') into subject using old;
          else
            execute format('select (%I($1)).*', 'outbox_' || resource || '_subject') into subject using new;
          end if;
          read := true;
        end if;
        insert into outbox_events (type, resource_type, resource_id, stream_id, user_id, data)
        values (rule->>'type', resource, subject.resource_id, subject.stream_id, subject.user_id,
                jsonb_build_object(
                  'object', subject.object,
                  'previous', coalesce(subject.previous, case when tg_op = 'UPDATE'
                    then (select coalesce(jsonb_object_agg(c, before_row->c), '{}'::jsonb) from unnest(watched) c
                          where after_row->c is distinct from before_row->c)
                    else '{}'::jsonb end)));
      end loop;
      return null;
    end $$`.execute(db);

  // instance.resized: its own trigger beside the status one (20261205T0500_outbox.ts), the columns
  // the instance presenter reads and no password.
  await sql`
    create function outbox_instance_subject(i instances) returns outbox_subject language sql stable as $$
      select i.id, i.id, i.user_id, jsonb_build_object(
        'id', i.id, 'user_id', i.user_id, 'hypervisor_id', i.hypervisor_id, 'name', i.name,
        'hostname', i.hostname, 'status', i.status, 'cpu_cores', i.cpu_cores, 'memory_mb', i.memory_mb,
        'disk_mb', i.disk_mb, 'primary_ipv4', i.primary_ipv4, 'primary_ipv6', i.primary_ipv6,
        'virtualization', i.virtualization, 'boot_order', i.boot_order, 'timezone', i.timezone,
        'guest_drift', i.guest_drift, 'guest_drift_since', i.guest_drift_since,
        'created_at', i.created_at, 'updated_at', i.updated_at), null::jsonb
    $$`.execute(db);
  await sql`
    create trigger instances_resized_outbox after update of cpu_cores, memory_mb, disk_mb on instances
    for each row
    when ((old.cpu_cores, old.memory_mb, old.disk_mb) is distinct from (new.cpu_cores, new.memory_mb, new.disk_mb))
    execute function outbox_record_change('instance', ${sql.lit(JSON.stringify(RULES.instance))})`.execute(
    db,
  );

  // A backup's and a snapshot's events go in their instance's stream, after the instance's own.
  for (const [resource, table] of [
    ['backup', 'instance_backups'],
    ['snapshot', 'instance_snapshots'],
  ] as const) {
    const backupOnly =
      resource === 'backup'
        ? sql`'protected', a.protected, 'policy_id', a.policy_id, 'verified_at', a.verified_at,`
        : sql``;
    await sql`
      create function ${sql.raw(`outbox_${resource}_subject`)}(a ${sql.table(table)}) returns outbox_subject
      language sql stable as $$
        select a.id, a.instance_id, a.user_id, jsonb_build_object(
          'id', a.id, 'instance_id', a.instance_id, 'name', a.name, 'state', a.state, 'size_mb', a.size_mb,
          'checksum', a.checksum, ${backupOnly} 'error', a.error, 'created_at', a.created_at,
          'completed_at', a.completed_at), null::jsonb
      $$`.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_outbox`)} after update of state on ${sql.table(table)}
      for each row when (old.state is distinct from new.state)
      execute function outbox_record_change(${sql.lit(resource)}, ${sql.lit(JSON.stringify(RULES[resource]))})`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [resource, table] of [
    ['snapshot', 'instance_snapshots'],
    ['backup', 'instance_backups'],
  ] as const) {
    await sql`drop trigger ${sql.raw(`${table}_outbox`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function ${sql.raw(`outbox_${resource}_subject`)}`.execute(db);
  }
  await sql`drop trigger instances_resized_outbox on instances`.execute(db);
  await sql`drop function outbox_instance_subject`.execute(db);
  await sql`drop function outbox_record_change()`.execute(db);
  await sql`drop type outbox_subject`.execute(db);
}
