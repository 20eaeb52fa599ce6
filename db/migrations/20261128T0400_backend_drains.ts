import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A drain of a hypervisor (its instances migrate away) or of one of its storage backends (its
  // instances' disks there move to another backend), by the same window.
  await db.schema
    .alterTable('evacuations')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('hypervisor'))
    .addColumn('from_backend', 'text')
    .addColumn('to_backend', 'text')
    .execute();
  await sql`alter table evacuations add constraint evacuations_kind check (kind in ('hypervisor', 'backend'))`.execute(
    db,
  );
  await sql`alter table evacuations add constraint evacuations_backends
    check ((kind = 'backend') = (from_backend is not null and to_backend is not null))`.execute(db);
  await db.schema
    .alterTable('evacuation_items')
    .addColumn('storage_move_id', 'uuid', (c) => c.references('storage_moves.id'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('evacuation_items').dropColumn('storage_move_id').execute();
  await sql`delete from evacuations where kind = 'backend'`.execute(db);
  await db.schema
    .alterTable('evacuations')
    .dropColumn('kind')
    .dropColumn('from_backend')
    .dropColumn('to_backend')
    .execute();
}
