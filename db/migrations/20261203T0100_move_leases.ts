import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

// The one lease per instance that every move takes, a migration or a storage move (SPEC.md §3
// rule 1), named for what it is: `move_leases`, keyed by the instance, naming the move that holds
// it in `move_id` (a migration's id or a storage move's).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table migration_leases rename to move_leases`.execute(db);
  await sql`alter table move_leases rename column migration_id to move_id`.execute(db);
  await sql`alter index migration_leases_pkey rename to move_leases_pkey`.execute(db);
  await sql`alter table move_leases rename constraint migration_leases_instance_id_fkey
    to move_leases_instance_id_fkey`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table move_leases rename constraint move_leases_instance_id_fkey
    to migration_leases_instance_id_fkey`.execute(db);
  await sql`alter index move_leases_pkey rename to migration_leases_pkey`.execute(db);
  await sql`alter table move_leases rename column move_id to migration_id`.execute(db);
  await sql`alter table move_leases rename to migration_leases`.execute(db);
}
