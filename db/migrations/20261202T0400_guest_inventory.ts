import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // What the hypervisor's inventory contradicted (domain/instances/guest-inventory.ts): `missing`,
  // no guest behind the instance; `stopped`, its guest stopped without the panel asking. Cleared by
  // a later inventory that shows the guest as the panel has it.
  await db.schema
    .alterTable('instances')
    .addColumn('guest_drift', 'text')
    .addColumn('guest_drift_since', 'timestamptz')
    .execute();
  await db.schema
    .alterTable('instances')
    .addCheckConstraint('instances_guest_drift', sql`guest_drift in ('missing', 'stopped')`)
    .execute();
  await db.schema.alterTable('hypervisors').addColumn('inventory_reported_at', 'timestamptz').execute();

  // Guests a hypervisor holds that name no instance of the panel: shown to administrators, never
  // touched by the panel. Each inventory replaces its hypervisor's rows.
  await db.schema
    .createTable('unknown_guests')
    .addColumn('hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id').onDelete('cascade'))
    .addColumn('guest_uuid', 'uuid', (c) => c.notNull())
    .addColumn('power_state', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('unknown_guests_pk', ['hypervisor_id', 'guest_uuid'])
    .addCheckConstraint('unknown_guests_power_state', sql`power_state in ('running', 'stopped')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('unknown_guests').execute();
  await db.schema.alterTable('hypervisors').dropColumn('inventory_reported_at').execute();
  await db.schema.alterTable('instances').dropConstraint('instances_guest_drift').execute();
  await db.schema.alterTable('instances').dropColumn('guest_drift_since').dropColumn('guest_drift').execute();
}
