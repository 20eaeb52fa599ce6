import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/events.md "Recorded with the change" (SPEC.md §6.3): an event is a row written by the
  // statement that makes the change it reports, so it commits or rolls back with it. `seq` orders
  // the events; two changes of one resource take its row lock in turn, so their events are in the
  // order they committed. `relayed_at` is set once the event is handed to its deliveries: until
  // then it stays, across any restart.
  await db.schema
    .createTable('outbox_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seq', 'bigint', (c) => c.notNull().unique().generatedAlwaysAsIdentity())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type ~ '^[a-z_]+\\.[a-z_]+$'`))
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'uuid', (c) => c.notNull())
    // Whose events are delivered in order, one after the other: an instance's, its operations' with them.
    .addColumn('stream_id', 'uuid', (c) => c.notNull())
    // The customer the resource belongs to: their own endpoints receive it. Administrators' receive all.
    .addColumn('user_id', 'uuid')
    // { object: the resource's columns as the change left them, previous: what it replaced }.
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('relayed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('outbox_events_pending')
    .on('outbox_events')
    .column('seq')
    .where(sql.ref('relayed_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('outbox_events_resource')
    .on('outbox_events')
    .columns(['resource_id', 'seq'])
    .execute();

  // The recorder of instance events: one trigger, so every writer of an instance's status (an
  // operation's begin and settle, the reconciler, the inventory's correction, a move's release)
  // records its event without knowing of it. The status table is domain/events/catalogue.ts's
  // INSTANCE_STATUS_EVENTS; a test holds the two equal. Password columns never enter the outbox.
  await sql`
    create function outbox_instance_events() returns trigger language plpgsql as $$
    declare
      snapshot jsonb := to_jsonb(new) - 'password_sealed' - 'password_visible_until' - 'password_shown_at';
      kind text;
    begin
      if tg_op = 'INSERT' then
        insert into outbox_events (type, resource_type, resource_id, stream_id, user_id, data)
        values ('instance.created', 'instance', new.id, new.id, new.user_id,
                jsonb_build_object('object', snapshot, 'previous', '{}'::jsonb));
        return null;
      end if;
      if new.status is distinct from old.status then
        kind := case new.status
                  when 'running' then 'instance.running'
                  when 'stopped' then 'instance.stopped'
                  when 'error' then 'instance.failed'
                  when 'deleted' then 'instance.deleted'
                end;
        if kind is not null then
          insert into outbox_events (type, resource_type, resource_id, stream_id, user_id, data)
          values (kind, 'instance', new.id, new.id, new.user_id,
                  jsonb_build_object('object', snapshot, 'previous', jsonb_build_object('status', old.status)));
        end if;
      end if;
      if (new.suspended_at is null) <> (old.suspended_at is null) then
        insert into outbox_events (type, resource_type, resource_id, stream_id, user_id, data)
        values (case when new.suspended_at is null then 'instance.unsuspended' else 'instance.suspended' end,
                'instance', new.id, new.id, new.user_id,
                jsonb_build_object('object', snapshot,
                                   'previous', jsonb_build_object('suspended', old.suspended_at is not null)));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger instances_outbox after insert or update of status, suspended_at on instances
    for each row execute function outbox_instance_events()`.execute(db);

  // operation.failed: an operation leaving `running` as failed or abandoned. Its workflow input
  // (which may hold sealed secrets) and its actor stay out; the task presenter reads the rest.
  await sql`
    create function outbox_operation_events() returns trigger language plpgsql as $$
    begin
      if old.state = 'running' and new.state in ('failed', 'abandoned') then
        insert into outbox_events (type, resource_type, resource_id, stream_id, user_id, data)
        select 'operation.failed', 'operation', new.id, new.instance_id, i.user_id,
               jsonb_build_object(
                 'object', jsonb_build_object(
                   'id', new.id, 'instance_id', new.instance_id, 'kind', new.kind, 'state', new.state,
                   'outcome', new.outcome, 'correlation_id', new.correlation_id,
                   'created_at', new.created_at, 'finished_at', new.finished_at),
                 'previous', jsonb_build_object('state', old.state))
          from instances i where i.id = new.instance_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger instance_operations_outbox after update of state on instance_operations
    for each row execute function outbox_operation_events()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger instance_operations_outbox on instance_operations`.execute(db);
  await sql`drop function outbox_operation_events()`.execute(db);
  await sql`drop trigger instances_outbox on instances`.execute(db);
  await sql`drop function outbox_instance_events()`.execute(db);
  await db.schema.dropTable('outbox_events').execute();
}
