import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const TABLES = { instance_backups: 'backup', instance_snapshots: 'snapshot' } as const;
const WATCHED = ['state', 'size_mb', 'user_id', 'deleted_at'];
const COLUMNS =
  'resource_type, resource_id, user_id, instance_id, plan_id, status, suspended, cpu_cores, memory_mb, disk_mb';
const valuesOf = (r: string) =>
  `${r}.id, ${r}.user_id, ${r}.instance_id, null::uuid,
   case when ${r}.deleted_at is null then ${r}.state else 'deleted' end, false, null::int, null::int, ${r}.size_mb`;

export async function up(db: Kysely<any>): Promise<void> {
  // docs/usage.md "History": a backup's and a snapshot's state and size join the usage history,
  // written by their tables' triggers as an instance's, a volume's and an address's are
  // (20261209T0100_usage_history.ts), so their GB-hours are rebuilt from it.
  for (const [table, resource] of Object.entries(TABLES)) {
    const changed = WATCHED.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
    await sql`
      create function ${sql.raw(`usage_record_${resource}`)}() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          insert into usage_states (${sql.raw(COLUMNS)}, changed_at)
          values (${sql.lit(resource)}, old.id, old.user_id, old.instance_id, null, null, false, null, null, null,
                  usage_clock());
          return null;
        end if;
        if tg_op = 'UPDATE' and not (${sql.raw(changed)}) then
          return null;
        end if;
        insert into usage_states (${sql.raw(COLUMNS)}, changed_at)
        select ${sql.lit(resource)}, ${sql.raw(valuesOf('new'))}, usage_clock();
        return null;
      end $$`.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_usage`)}
      after insert or delete or update of ${sql.raw(WATCHED.join(', '))} on ${sql.table(table)}
      for each row execute function ${sql.raw(`usage_record_${resource}`)}()`.execute(db);
    await sql`
      insert into usage_states (${sql.raw(COLUMNS)}, changed_at)
      select ${sql.lit(resource)}, ${sql.raw(valuesOf('r'))}, now() from ${sql.table(table)} r`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, resource] of Object.entries(TABLES)) {
    await sql`drop trigger ${sql.raw(`${table}_usage`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function ${sql.raw(`usage_record_${resource}`)}()`.execute(db);
  }
}
