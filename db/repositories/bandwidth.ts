import { sql } from 'kysely';
import { billingPeriodOf } from '../../domain/networks/bandwidth.js';
import type { Database } from '../database.js';

// Instances' traffic per billing period: added to as samples are stored, read by their customer.

export interface TrafficSample {
  readonly instance_id: string;
  readonly sampled_at: Date;
  readonly net_rx_bytes: string | number;
  readonly net_tx_bytes: string | number;
}

/**
 * Adds stored samples to their instances' periods. Rows are written in one order (instance, then
 * period), so two batches for the same instances at once wait for each other, never deadlock.
 */
export async function addTraffic(trx: Database, samples: readonly TrafficSample[]): Promise<void> {
  const sums = new Map<
    string,
    { instance_id: string; period: string; inbound: bigint; outbound: bigint; last: Date }
  >();
  for (const s of samples) {
    const period = billingPeriodOf(s.sampled_at).startsAt.toISOString().slice(0, 10);
    const key = `${s.instance_id} ${period}`;
    const sum = sums.get(key) ?? {
      instance_id: s.instance_id,
      period,
      inbound: 0n,
      outbound: 0n,
      last: s.sampled_at,
    };
    sum.inbound += BigInt(s.net_rx_bytes);
    sum.outbound += BigInt(s.net_tx_bytes);
    if (s.sampled_at > sum.last) sum.last = s.sampled_at;
    sums.set(key, sum);
  }
  const rows = [...sums.keys()].sort().map((key) => sums.get(key)!);
  if (rows.length === 0) return;
  await trx
    .insertInto('instance_bandwidth')
    .values(
      rows.map((r) => ({
        instance_id: r.instance_id,
        period: r.period,
        inbound_bytes: r.inbound.toString(),
        outbound_bytes: r.outbound.toString(),
        last_sample_at: r.last,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['instance_id', 'period']).doUpdateSet({
        inbound_bytes: sql`instance_bandwidth.inbound_bytes + excluded.inbound_bytes`,
        outbound_bytes: sql`instance_bandwidth.outbound_bytes + excluded.outbound_bytes`,
        last_sample_at: sql`greatest(instance_bandwidth.last_sample_at, excluded.last_sample_at)`,
      }),
    )
    .execute();
}

/** The instance's periods from `since` on, newest first; a period without traffic has no row. */
export async function listBandwidth(db: Database, instanceId: string, since: Date) {
  return db
    .selectFrom('instance_bandwidth')
    .select([
      sql<string>`to_char(period, 'YYYY-MM')`.as('period'),
      'inbound_bytes',
      'outbound_bytes',
      'last_sample_at',
    ])
    .where('instance_id', '=', instanceId)
    .where('period', '>=', since.toISOString().slice(0, 10))
    .orderBy('period', 'desc')
    .execute();
}
