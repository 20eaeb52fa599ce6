/**
 * The customer's metrics series at the length the retention keeps: one instance given every raw
 * sample of 48 hours, every 5-minute bucket of 14 days and every hourly bucket of 400 days (as
 * that many minutes of its agent's reports would leave them), then read through the Client API
 * over a day, six days, 80 days and 400 days: each range at the resolution it calls for, at most
 * 2,000 points, one request at a time.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { BenchStack } from '../stack.js';
import { type Point, quantile } from './report.js';

const READS = 40;
const WARM_UP = 5;
export const SERIES_TARGET_P50_MS = 50;
const DAY = 24 * 3600 * 1000;

async function seedHistory(db: Database, instanceId: string, hypervisorId: string): Promise<void> {
  await sql`
    insert into instance_metrics (instance_id, hypervisor_id, sampled_at, cpu_percent, memory_used_mb, disk_read_bytes,
                                  disk_write_bytes, net_rx_bytes, net_tx_bytes)
    select ${instanceId}, ${hypervisorId}, date_trunc('minute', now()) - g * interval '1 minute', 12.5, 300, 1000, 2000,
           3000, 4000
      from generate_series(1, 48 * 60) g
    on conflict do nothing`.execute(db);
  await sql`
    insert into instance_metric_rollups (instance_id, resolution_s, bucket_at, sample_count, cpu_percent_sum,
                                         cpu_percent_max, memory_used_mb_sum, disk_read_bytes, disk_write_bytes,
                                         net_rx_bytes, net_tx_bytes)
    select ${instanceId}, r.s, to_timestamp(floor(extract(epoch from now()) / r.s) * r.s) - g * r.s * interval '1 second',
           r.s / 60, 12.5 * r.s / 60, 50, 300 * r.s / 60, 1000, 2000, 3000, 4000
      from (values (300, 14 * 288), (3600, 400 * 24)) as r(s, n), generate_series(1, r.n) g
    on conflict do nothing`.execute(db);
  await sql`analyze instance_metrics, instance_metric_rollups`.execute(db);
}

/** p50/p99 of each range's read, as points of one curve over the range's length. */
export async function seriesReads(
  stack: BenchStack,
  instance: { id: string; hypervisorId: string },
): Promise<Point[]> {
  await seedHistory(stack.db, instance.id, instance.hypervisorId);
  const points: Point[] = [];
  for (const days of [1, 6, 80, 400]) {
    const until = new Date();
    const since = new Date(until.getTime() - days * DAY);
    const url =
      `${stack.apiUrl}/api/client/cloud/${instance.id}/metrics` +
      `?since=${encodeURIComponent(since.toISOString())}&until=${encodeURIComponent(until.toISOString())}`;
    const times: number[] = [];
    let answer = { resolution: '', samples: [] as unknown[] };
    for (let i = 0; i < WARM_UP + READS; i++) {
      const started = performance.now();
      const reply = await fetch(url, { headers: { Authorization: `Bearer ${stack.key}` } });
      const body = (await reply.json()) as { attributes: typeof answer };
      if (reply.status !== 200) throw new Error(`the series over ${days} days answered ${reply.status}`);
      if (i >= WARM_UP) times.push(performance.now() - started);
      answer = body.attributes;
    }
    const p50 = quantile(times, 0.5);
    points.push({
      size: `${days} day${days > 1 ? 's' : ''}`,
      text: `${answer.resolution}, ${answer.samples.length} points: p50 ${p50.toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms`,
      meets: p50 <= SERIES_TARGET_P50_MS,
    });
  }
  return points;
}
