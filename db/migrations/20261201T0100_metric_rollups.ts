import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // An instance's samples summed per 5-minute and 1-hour bucket as they are stored, so a long
  // range is read from a few thousand rows and raw samples can go after hours. Sums and a count,
  // not averages: a batch adds to a bucket without reading it, and a late sample lands exactly.
  await db.schema
    .createTable('instance_metric_rollups')
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('resolution_s', 'integer', (c) => c.notNull().check(sql`resolution_s in (300, 3600)`))
    .addColumn('bucket_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sample_count', 'integer', (c) => c.notNull().check(sql`sample_count > 0`))
    .addColumn('cpu_percent_sum', 'double precision', (c) => c.notNull())
    .addColumn('cpu_percent_max', 'real', (c) => c.notNull())
    .addColumn('memory_used_mb_sum', 'bigint', (c) => c.notNull())
    .addColumn('disk_read_bytes', 'bigint', (c) => c.notNull())
    .addColumn('disk_write_bytes', 'bigint', (c) => c.notNull())
    .addColumn('net_rx_bytes', 'bigint', (c) => c.notNull())
    .addColumn('net_tx_bytes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('instance_metric_rollups_pk', ['instance_id', 'resolution_s', 'bucket_at'])
    .execute();
  // The retention sweep deletes by age within one resolution.
  await db.schema
    .createIndex('instance_metric_rollups_age')
    .on('instance_metric_rollups')
    .columns(['resolution_s', 'bucket_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('instance_metric_rollups').execute();
}
