import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The migrations under way, by target: an evacuation counts them before each move it starts, so
  // the count reads the few in flight, not every migration ever made.
  await sql`create index migrations_in_flight on migrations (target_hypervisor_id)
    where state not in ('COMPLETED', 'CLEANING_UP', 'CLEANED_UP', 'ROLLED_BACK', 'RECOVERY_REQUIRED')`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index migrations_in_flight`.execute(db);
}
