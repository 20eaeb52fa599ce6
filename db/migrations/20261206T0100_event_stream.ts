import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/events.md "The stream": a statement that records events announces them on
  // `outbox_events`. PostgreSQL delivers a notification at its transaction's commit and never for
  // one that rolled back, and folds a transaction's identical ones into one: a wake-up, not the
  // events, which listeners read from the table.
  await sql`
    create function outbox_events_announce() returns trigger language plpgsql as $$
    begin
      perform pg_notify('outbox_events', '');
      return null;
    end $$`.execute(db);
  await sql`
    create trigger outbox_events_announce after insert on outbox_events
    for each statement execute function outbox_events_announce()`.execute(db);

  // The retention floor: the highest `seq` the retention sweep has deleted. A reader resuming after
  // a `seq` below it may have missed events, and is told so; at or above it, nothing it has not seen
  // has gone. One row, moved forward only, by the statement that deletes.
  await db.schema
    .createTable('outbox_retention')
    .addColumn('id', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`id`))
    .addColumn('pruned_through_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into outbox_retention default values`.execute(db);

  // A customer's stream and list read their own events in order.
  await db.schema.createIndex('outbox_events_user').on('outbox_events').columns(['user_id', 'seq']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_events_user').execute();
  await db.schema.dropTable('outbox_retention').execute();
  await sql`drop trigger outbox_events_announce on outbox_events`.execute(db);
  await sql`drop function outbox_events_announce()`.execute(db);
}
