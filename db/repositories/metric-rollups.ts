import { sql } from 'kysely';
import {
  bucketStart,
  ROLLUP_RESOLUTIONS,
  ROLLUP_SECONDS,
  type RollupResolution,
} from '../../domain/metrics/resolutions.js';
import type { Database } from '../database.js';

// Instances' samples summed per 5-minute and 1-hour bucket, added to as samples are stored.

export interface StoredSample {
  readonly instance_id: string;
  readonly sampled_at: Date;
  readonly cpu_percent: number;
  readonly memory_used_mb: number;
  readonly disk_read_bytes: string | number;
  readonly disk_write_bytes: string | number;
  readonly net_rx_bytes: string | number;
  readonly net_tx_bytes: string | number;
}

interface Bucket {
  instance_id: string;
  resolution_s: number;
  bucket_at: Date;
  sample_count: number;
  cpu_percent_sum: number;
  cpu_percent_max: number;
  memory_used_mb_sum: bigint;
  disk_read_bytes: bigint;
  disk_write_bytes: bigint;
  net_rx_bytes: bigint;
  net_tx_bytes: bigint;
}

/** The buckets a batch adds to, each once, in one order (see addToRollups). */
function bucketsOf(samples: readonly StoredSample[]): Bucket[] {
  const buckets = new Map<string, Bucket>();
  for (const s of samples) {
    for (const resolution of ROLLUP_RESOLUTIONS) {
      const at = bucketStart(s.sampled_at, resolution);
      const key = `${s.instance_id} ${ROLLUP_SECONDS[resolution]} ${at.toISOString()}`;
      const b = buckets.get(key);
      if (!b) {
        buckets.set(key, {
          instance_id: s.instance_id,
          resolution_s: ROLLUP_SECONDS[resolution],
          bucket_at: at,
          sample_count: 1,
          cpu_percent_sum: s.cpu_percent,
          cpu_percent_max: s.cpu_percent,
          memory_used_mb_sum: BigInt(s.memory_used_mb),
          disk_read_bytes: BigInt(s.disk_read_bytes),
          disk_write_bytes: BigInt(s.disk_write_bytes),
          net_rx_bytes: BigInt(s.net_rx_bytes),
          net_tx_bytes: BigInt(s.net_tx_bytes),
        });
        continue;
      }
      b.sample_count += 1;
      b.cpu_percent_sum += s.cpu_percent;
      b.cpu_percent_max = Math.max(b.cpu_percent_max, s.cpu_percent);
      b.memory_used_mb_sum += BigInt(s.memory_used_mb);
      b.disk_read_bytes += BigInt(s.disk_read_bytes);
      b.disk_write_bytes += BigInt(s.disk_write_bytes);
      b.net_rx_bytes += BigInt(s.net_rx_bytes);
      b.net_tx_bytes += BigInt(s.net_tx_bytes);
    }
  }
  return [...buckets.keys()].sort().map((key) => buckets.get(key)!);
}

/**
 * Adds samples just stored to their buckets, in the transaction that stored them: a sample counts
 * in its buckets exactly when it is stored, so a batch sent again adds nothing and a late sample
 * lands in the bucket of its own time. Rows are written in one order, so two batches for the same
 * instances wait for each other, never deadlock.
 */
export async function addToRollups(trx: Database, samples: readonly StoredSample[]): Promise<void> {
  const rows = bucketsOf(samples);
  if (rows.length === 0) return;
  const text = (n: bigint) => n.toString();
  await trx
    .insertInto('instance_metric_rollups')
    .values(
      rows.map((b) => ({
        ...b,
        memory_used_mb_sum: text(b.memory_used_mb_sum),
        disk_read_bytes: text(b.disk_read_bytes),
        disk_write_bytes: text(b.disk_write_bytes),
        net_rx_bytes: text(b.net_rx_bytes),
        net_tx_bytes: text(b.net_tx_bytes),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['instance_id', 'resolution_s', 'bucket_at']).doUpdateSet({
        sample_count: sql`instance_metric_rollups.sample_count + excluded.sample_count`,
        cpu_percent_sum: sql`instance_metric_rollups.cpu_percent_sum + excluded.cpu_percent_sum`,
        cpu_percent_max: sql`greatest(instance_metric_rollups.cpu_percent_max, excluded.cpu_percent_max)`,
        memory_used_mb_sum: sql`instance_metric_rollups.memory_used_mb_sum + excluded.memory_used_mb_sum`,
        disk_read_bytes: sql`instance_metric_rollups.disk_read_bytes + excluded.disk_read_bytes`,
        disk_write_bytes: sql`instance_metric_rollups.disk_write_bytes + excluded.disk_write_bytes`,
        net_rx_bytes: sql`instance_metric_rollups.net_rx_bytes + excluded.net_rx_bytes`,
        net_tx_bytes: sql`instance_metric_rollups.net_tx_bytes + excluded.net_tx_bytes`,
      }),
    )
    .execute();
}

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
