import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // An instance's traffic per billing period (a calendar month, UTC), summed as samples are
  // stored: the samples themselves are pruned long before a month ends.
  await db.schema
    .createTable('instance_bandwidth')
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('period', 'date', (c) => c.notNull().check(sql`extract(day from period) = 1`))
    .addColumn('inbound_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('outbound_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_sample_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('instance_bandwidth_pkey', ['instance_id', 'period'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('instance_bandwidth').execute();
}
