import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/migration.md "Moves out of one hypervisor": an optional outbound bandwidth budget, shared
  // by the moves out of the hypervisor. Null, as every hypervisor starts: no budget. A budget is a
  // whole number of Mbit/s from 1.
  await db.schema
    .alterTable('hypervisors')
    .addColumn('migration_bandwidth_mbps', 'integer', (c) => c.check(sql`migration_bandwidth_mbps >= 1`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('hypervisors').dropColumn('migration_bandwidth_mbps').execute();
}
