import { sql } from 'kysely';
import { bucketStart } from '../../../domain/metrics/resolutions.js';
import type { Database } from '../../database.js';
import { addTrafficOf, periodOf } from './bandwidth.js';
import { addToRollupsOf } from './metric-rollups.js';

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
 * rollups and their traffic to the instances' bandwidth; samples of other instances are dropped. A
 * sample sent twice (an agent retrying, or twice in one batch) is stored and counted once. One
 * statement, so one round trip and its own transaction: only the samples stored by it count
 * towards rollups and bandwidth, so a batch sent again adds nothing. Returns how many were stored.
 */
export async function storeSamples(db: Database, hypervisorId: string, samples: readonly MetricSample[]) {
  if (samples.length === 0) return 0;
  const column = <T>(value: (s: MetricSample) => T) => samples.map(value);
  const { rows } = await sql<{ stored: number }>`
    with sent as (
      select distinct on (instance_id, sampled_at) *
        from unnest(
          ${column((s) => s.instanceId)}::uuid[], ${column((s) => s.sampledAt)}::timestamptz[],
          ${column((s) => s.cpuPercent)}::real[], ${column((s) => s.memoryUsedMb)}::integer[],
          ${column((s) => s.diskReadBytes)}::bigint[], ${column((s) => s.diskWriteBytes)}::bigint[],
          ${column((s) => s.netRxBytes)}::bigint[], ${column((s) => s.netTxBytes)}::bigint[],
          ${column((s) => bucketStart(s.sampledAt, '5m'))}::timestamptz[],
          ${column((s) => bucketStart(s.sampledAt, '1h'))}::timestamptz[],
          ${column((s) => periodOf(s.sampledAt))}::date[]
        ) as s(instance_id, sampled_at, cpu_percent, memory_used_mb, disk_read_bytes, disk_write_bytes,
               net_rx_bytes, net_tx_bytes, bucket_5m, bucket_1h, period)
       order by instance_id, sampled_at
    ),
    inserted as (
      insert into instance_metrics (instance_id, hypervisor_id, ${sql.join(SAMPLE_COLUMNS.map((c) => sql.ref(c)))})
      select s.instance_id, i.hypervisor_id, ${sql.join(SAMPLE_COLUMNS.map((c) => sql.ref(`s.${c}`)))}
        from sent s
        join instances i on i.id = s.instance_id and i.hypervisor_id = ${hypervisorId}
       order by s.instance_id, s.sampled_at
      on conflict (instance_id, sampled_at) do nothing
      returning instance_id, sampled_at
    ),
    stored as (select sent.* from sent join inserted using (instance_id, sampled_at)),
    rollups as (${addToRollupsOf('stored')}),
    traffic as (${addTrafficOf('stored')})
    select count(*)::integer as stored from inserted`.execute(db);
  return rows[0]?.stored ?? 0;
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
