import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // An ISO whose file its hypervisor is removing (the deleteIso workflow): still in its library,
  // neither mounted nor mountable, gone once removed.
  await sql`alter table instance_isos drop constraint instance_isos_state_check`.execute(db);
  await sql`alter table instance_isos add constraint instance_isos_state_check
    check (state in ('fetching', 'available', 'failed', 'deleting'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update instance_isos set state = 'available' where state = 'deleting'`.execute(db);
  await sql`alter table instance_isos drop constraint instance_isos_state_check`.execute(db);
  await sql`alter table instance_isos add constraint instance_isos_state_check
    check (state in ('fetching', 'available', 'failed'))`.execute(db);
}
