import { sql } from 'kysely';
import { billingPeriodOf } from '../../../domain/networks/bandwidth.js';
import type { Database } from '../../database.js';

// Instances' traffic per billing period: added to as samples are stored, read by their customer.

/** The first day of the billing period that holds `at`: the period column of a stored sample. */
export const periodOf = (at: Date): string => billingPeriodOf(at).startsAt.toISOString().slice(0, 10);

/**
 * The statement that adds the samples of `from` (a query of the caller's statement with
 * instance_id, sampled_at, period, net_rx_bytes and net_tx_bytes) to their instances' periods.
 * Rows are written in one order (instance, then period), so two batches for the same instances at
 * once wait for each other, never deadlock.
 */
export const addTrafficOf = (from: string) => sql`
  insert into instance_bandwidth as b (instance_id, period, inbound_bytes, outbound_bytes, last_sample_at)
  select instance_id, period, sum(net_rx_bytes), sum(net_tx_bytes), max(sampled_at)
    from ${sql.table(from)}
   group by instance_id, period
   order by instance_id, period
  on conflict (instance_id, period) do update set
    inbound_bytes = b.inbound_bytes + excluded.inbound_bytes,
    outbound_bytes = b.outbound_bytes + excluded.outbound_bytes,
    last_sample_at = greatest(b.last_sample_at, excluded.last_sample_at)`;

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
