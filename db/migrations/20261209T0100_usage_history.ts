import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

/** What each table's trigger writes of a row: its owner, instance, plan, status and size. */
const SUBJECTS = {
  instances: {
    resource: 'instance',
    watched: [
      'status',
      'suspended_at',
      'plan_id',
      'cpu_cores',
      'memory_mb',
      'disk_mb',
      'user_id',
      'deleted_at',
    ],
    values: (r: string) =>
      `${r}.id, ${r}.user_id, ${r}.id, ${r}.plan_id,
       case when ${r}.deleted_at is null then ${r}.status else 'deleted' end,
       ${r}.suspended_at is not null, ${r}.cpu_cores, ${r}.memory_mb, ${r}.disk_mb`,
  },
  volumes: {
    resource: 'volume',
    watched: ['state', 'size_mb', 'user_id', 'instance_id'],
    values: (r: string) =>
      `${r}.id, ${r}.user_id, ${r}.instance_id, null::uuid, ${r}.state, false, null::int, null::int, ${r}.size_mb`,
  },
  ip_addresses: {
    resource: 'ip_address',
    watched: ['user_id', 'instance_id'],
    values: (r: string) =>
      `${r}.id, ${r}.user_id, ${r}.instance_id, null::uuid,
       case when ${r}.user_id is null then null else 'held' end, false, null::int, null::int, null::int`,
  },
} as const;

const COLUMNS =
  'resource_type, resource_id, user_id, instance_id, plan_id, status, suspended, cpu_cores, memory_mb, disk_mb';

export async function up(db: Kysely<any>): Promise<void> {
  // docs/usage.md "History": every change of what a resource is billed for, appended in the
  // transaction of the change by the table's own trigger, so no writer of a status can forget it
  // and an hour is rebuilt from these rows alone. A null status: the resource is gone or unowned.
  await db.schema
    .createTable('usage_states')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'uuid')
    .addColumn('instance_id', 'uuid')
    .addColumn('plan_id', 'uuid')
    .addColumn('status', 'text')
    .addColumn('suspended', 'boolean', (c) => c.notNull())
    .addColumn('cpu_cores', 'integer')
    .addColumn('memory_mb', 'integer')
    .addColumn('disk_mb', 'integer')
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('usage_states_resource')
    .on('usage_states')
    .columns(['resource_id', 'changed_at'])
    .execute();
  await db.schema.createIndex('usage_states_changed').on('usage_states').column('changed_at').execute();

  // The clock of a change: the moment the trigger runs (clock_timestamp, not the transaction's
  // start), so a change that waits for an hour's closing is dated after it (docs/usage.md
  // "Closing"). A session may set cloudsvc.usage_clock to date its changes (tests replay history).
  await sql`
    create function usage_clock() returns timestamptz language sql volatile as $$
      select coalesce(nullif(current_setting('cloudsvc.usage_clock', true), '')::timestamptz, clock_timestamp())
    $$`.execute(db);

  for (const [table, subject] of Object.entries(SUBJECTS)) {
    const changed = subject.watched.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
    await sql`
      create function ${sql.raw(`usage_record_${subject.resource}`)}() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          insert into usage_states (${sql.raw(COLUMNS)}, changed_at)
          values (${sql.lit(subject.resource)}, old.id, old.user_id, null, null, null, false, null, null, null, usage_clock());
          return null;
        end if;
        if tg_op = 'UPDATE' and not (${sql.raw(changed)}) then
          return null;
        end if;
        insert into usage_states (${sql.raw(COLUMNS)}, changed_at)
        select ${sql.lit(subject.resource)}, ${sql.raw(subject.values('new'))}, usage_clock();
        return null;
      end $$`.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_usage`)}
      after insert or delete or update of ${sql.raw(subject.watched.join(', '))} on ${sql.table(table)}
      for each row execute function ${sql.raw(`usage_record_${subject.resource}`)}()`.execute(db);
    // What exists when this lands is its first state.
    await sql`
      insert into usage_states (${sql.raw(COLUMNS)}, changed_at)
      select ${sql.lit(subject.resource)}, ${sql.raw(subject.values('r'))}, now() from ${sql.table(table)} r`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, subject] of Object.entries(SUBJECTS)) {
    await sql`drop trigger ${sql.raw(`${table}_usage`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function ${sql.raw(`usage_record_${subject.resource}`)}()`.execute(db);
  }
  await sql`drop function usage_clock()`.execute(db);
  await db.schema.dropTable('usage_states').execute();
}
