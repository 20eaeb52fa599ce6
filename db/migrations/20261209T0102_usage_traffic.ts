import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/usage.md "Traffic": the per-period counters keep a month's running total, not an hour's,
  // so each addition to them is appended here by their trigger, in the statement that stores the
  // samples, dated when it is written (usage_clock()). An hour's traffic is what was added in it.
  await db.schema
    .createTable('usage_traffic')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'uuid')
    .addColumn('inbound_bytes', 'bigint', (c) => c.notNull())
    .addColumn('outbound_bytes', 'bigint', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('usage_traffic_recorded').on('usage_traffic').column('recorded_at').execute();
  await sql`
    create function usage_record_traffic() returns trigger language plpgsql as $$
    declare
      inbound bigint := new.inbound_bytes - case when tg_op = 'UPDATE' then old.inbound_bytes else 0 end;
      outbound bigint := new.outbound_bytes - case when tg_op = 'UPDATE' then old.outbound_bytes else 0 end;
    begin
      if inbound = 0 and outbound = 0 then
        return null;
      end if;
      insert into usage_traffic (instance_id, user_id, inbound_bytes, outbound_bytes, recorded_at)
      select new.instance_id, (select user_id from instances where id = new.instance_id), inbound, outbound,
             usage_clock();
      return null;
    end $$`.execute(db);
  await sql`
    create trigger instance_bandwidth_usage after insert or update of inbound_bytes, outbound_bytes
    on instance_bandwidth for each row execute function usage_record_traffic()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger instance_bandwidth_usage on instance_bandwidth`.execute(db);
  await sql`drop function usage_record_traffic()`.execute(db);
  await db.schema.dropTable('usage_traffic').execute();
}
