import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // What a hypervisor can do comes from its agent's heartbeat; the administrator only takes away.
  // Until now the configured list had to name a capability as well, so a new host whose agent
  // reported `live_migration` was no live target until someone typed it in by hand.
  await db.schema
    .alterTable('hypervisors')
    .addColumn('withheld_capabilities', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('hypervisors').dropColumn('withheld_capabilities').execute();
}
