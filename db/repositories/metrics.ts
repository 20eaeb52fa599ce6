import { sql } from 'kysely';
import type { Database } from '../database.js';
import { addTraffic } from './bandwidth.js';
import { addToRollups } from './metric-rollups.js';

const SAMPLE_COLUMNS = [
  'sampled_at',
  'cpu_percent',
  'memory_used_mb',
  'disk_read_bytes',
  'disk_write_bytes',
  'net_rx_bytes',
  'net_tx_bytes',
] as const;

export interface MetricSample {
  readonly instanceId: string;
  readonly sampledAt: Date;
  readonly cpuPercent: number;
  readonly memoryUsedMb: number;
  readonly diskReadBytes: number;
  readonly diskWriteBytes: number;
  readonly netRxBytes: number;
  readonly netTxBytes: number;
}

/**
 * Stores the samples of instances placed on this hypervisor, and adds them to the instances'
 * rollups and their traffic to the instances' bandwidth; samples of other instances are dropped. A sample sent twice (an agent
 * retrying) is stored and counted once. Returns how many were stored.
 */
export async function storeSamples(db: Database, hypervisorId: string, samples: readonly MetricSample[]) {
  if (samples.length === 0) return 0;
  const placed = await db
    .selectFrom('instances')
    .select('id')
    .where('hypervisor_id', '=', hypervisorId)
    .where('id', 'in', [...new Set(samples.map((s) => s.instanceId))])
    .execute();
  const own = new Set(placed.map((r) => r.id));
  const rows = samples
    .filter((s) => own.has(s.instanceId))
    .map((s) => ({
      instance_id: s.instanceId,
      hypervisor_id: hypervisorId,
      sampled_at: s.sampledAt,
      cpu_percent: s.cpuPercent,
      memory_used_mb: s.memoryUsedMb,
      disk_read_bytes: s.diskReadBytes,
      disk_write_bytes: s.diskWriteBytes,
      net_rx_bytes: s.netRxBytes,
      net_tx_bytes: s.netTxBytes,
    }));
  if (rows.length === 0) return 0;
  // Only the samples stored now count towards rollups and bandwidth, so a batch sent again adds nothing.
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('instance_metrics')
      .values(rows)
      .onConflict((oc) => oc.columns(['instance_id', 'sampled_at']).doNothing())
      .returning(['instance_id', ...SAMPLE_COLUMNS])
      .execute();
    await addToRollups(trx, inserted);
    await addTraffic(trx, inserted);
    return inserted.length;
  });
}

export async function listSamples(db: Database, instanceId: string, since: Date, until: Date, limit: number) {
  return db
    .selectFrom('instance_metrics')
    .select(SAMPLE_COLUMNS)
    .where('instance_id', '=', instanceId)
    .where('sampled_at', '>=', since)
    .where('sampled_at', '<=', until)
    .orderBy('sampled_at')
    .limit(limit)
    .execute();
}

/** Deletes samples older than the retention; returns how many. */
export async function pruneSamples(db: Database, retentionHours: number): Promise<number> {
  const result = await db
    .deleteFrom('instance_metrics')
    .where('sampled_at', '<', sql<Date>`now() - ${`${retentionHours} hours`}::interval`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
