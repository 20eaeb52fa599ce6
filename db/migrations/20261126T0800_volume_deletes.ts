import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A volume whose disk its hypervisor is removing: on no instance, gone once removed.
  await sql`alter table volumes drop constraint volumes_state_check`.execute(db);
  await sql`alter table volumes add constraint volumes_state_check
    check (state in ('available', 'attaching', 'attached', 'detaching', 'resizing', 'deleting'))`.execute(db);
  await sql`alter table volumes drop constraint volumes_on_instance`.execute(db);
  await sql`alter table volumes add constraint volumes_on_instance
    check ((state in ('available', 'deleting')) = (instance_id is null))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update volumes set state = 'available' where state = 'deleting'`.execute(db);
  await sql`alter table volumes drop constraint volumes_on_instance`.execute(db);
  await sql`alter table volumes add constraint volumes_on_instance
    check ((state = 'available') = (instance_id is null))`.execute(db);
  await sql`alter table volumes drop constraint volumes_state_check`.execute(db);
  await sql`alter table volumes add constraint volumes_state_check
    check (state in ('available', 'attaching', 'attached', 'detaching', 'resizing'))`.execute(db);
}
