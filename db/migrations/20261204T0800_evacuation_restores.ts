import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A restore brings home the instances an evacuation moved: a run of its own, of kind `restore`,
  // holding the home node (the one-at-a-time index on hypervisor_id), linked to the evacuation.
  await db.schema
    .alterTable('evacuations')
    .addColumn('restores', 'uuid', (c) => c.references('evacuations.id'))
    .execute();
  await sql`alter table evacuations drop constraint evacuations_kind`.execute(db);
  await sql`alter table evacuations add constraint evacuations_kind
    check (kind in ('hypervisor', 'backend', 'restore'))`.execute(db);
  await sql`alter table evacuations add constraint evacuations_restores
    check ((kind = 'restore') = (restores is not null))`.execute(db);
  await db.schema.createIndex('evacuations_restores').on('evacuations').column('restores').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from evacuations where kind = 'restore'`.execute(db);
  await db.schema.dropIndex('evacuations_restores').execute();
  await sql`alter table evacuations drop constraint evacuations_restores`.execute(db);
  await db.schema.alterTable('evacuations').dropColumn('restores').execute();
  await sql`alter table evacuations drop constraint evacuations_kind`.execute(db);
  await sql`alter table evacuations add constraint evacuations_kind
    check (kind in ('hypervisor', 'backend'))`.execute(db);
}
