import { sql } from 'kysely';
import { bucketStart, ROLLUP_SECONDS, type RollupResolution } from '../../../domain/metrics/resolutions.js';
import type { Database } from '../../database.js';

// Instances' samples summed per 5-minute and 1-hour bucket, added to as samples are stored.

/**
 * The statement that adds the samples of `from` (a query of the caller's statement with
 * instance_id, the sample columns and each sample's bucket_5m and bucket_1h) to their buckets.
 * Called in the statement that stores them: a sample counts in its buckets exactly when it is
 * stored, so a batch sent again adds nothing and a late sample lands in the bucket of its own
 * time. Rows are written in one order, so two batches for the same instances wait for each other,
 * never deadlock.
 */
export const addToRollupsOf = (from: string) => sql`
  insert into instance_metric_rollups as r (
    instance_id, resolution_s, bucket_at, sample_count, cpu_percent_sum, cpu_percent_max,
    memory_used_mb_sum, disk_read_bytes, disk_write_bytes, net_rx_bytes, net_tx_bytes)
  select s.instance_id, b.resolution_s, b.bucket_at, count(*), sum(s.cpu_percent::float8), max(s.cpu_percent),
         sum(s.memory_used_mb), sum(s.disk_read_bytes), sum(s.disk_write_bytes), sum(s.net_rx_bytes),
         sum(s.net_tx_bytes)
    from ${sql.table(from)} as s
   cross join lateral (
     values (${ROLLUP_SECONDS['5m']}::integer, s.bucket_5m), (${ROLLUP_SECONDS['1h']}::integer, s.bucket_1h)
   ) as b(resolution_s, bucket_at)
   group by s.instance_id, b.resolution_s, b.bucket_at
   order by s.instance_id, b.resolution_s, b.bucket_at
  on conflict (instance_id, resolution_s, bucket_at) do update set
    sample_count = r.sample_count + excluded.sample_count,
    cpu_percent_sum = r.cpu_percent_sum + excluded.cpu_percent_sum,
    cpu_percent_max = greatest(r.cpu_percent_max, excluded.cpu_percent_max),
    memory_used_mb_sum = r.memory_used_mb_sum + excluded.memory_used_mb_sum,
    disk_read_bytes = r.disk_read_bytes + excluded.disk_read_bytes,
    disk_write_bytes = r.disk_write_bytes + excluded.disk_write_bytes,
    net_rx_bytes = r.net_rx_bytes + excluded.net_rx_bytes,
    net_tx_bytes = r.net_tx_bytes + excluded.net_tx_bytes`;

/**
 * One instance's buckets whose start lies in the range (the bucket holding `since` included),
 * oldest first: CPU and memory averaged over the bucket's samples, byte counts summed.
 */
export async function listRollups(
  db: Database,
  instanceId: string,
  resolution: RollupResolution,
  since: Date,
  until: Date,
  limit: number,
) {
  return db
    .selectFrom('instance_metric_rollups')
    .select([
      'bucket_at',
      'sample_count',
      sql<number>`cpu_percent_sum / sample_count`.as('cpu_percent'),
      'cpu_percent_max',
      sql<number>`round(memory_used_mb_sum::numeric / sample_count)::integer`.as('memory_used_mb'),
      'disk_read_bytes',
      'disk_write_bytes',
      'net_rx_bytes',
      'net_tx_bytes',
    ])
    .where('instance_id', '=', instanceId)
    .where('resolution_s', '=', ROLLUP_SECONDS[resolution])
    .where('bucket_at', '>=', bucketStart(since, resolution))
    .where('bucket_at', '<=', until)
    .orderBy('bucket_at')
    .limit(limit)
    .execute();
}

/** Deletes one resolution's buckets that ended before the retention; returns how many. */
export async function pruneRollups(db: Database, resolution: RollupResolution, retentionDays: number) {
  const result = await db
    .deleteFrom('instance_metric_rollups')
    .where('resolution_s', '=', ROLLUP_SECONDS[resolution])
    .where('bucket_at', '<', sql<Date>`now() - ${`${retentionDays} days`}::interval`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
