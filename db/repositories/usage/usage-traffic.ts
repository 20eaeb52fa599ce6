import { sql } from 'kysely';
import { addHours } from '../../../domain/usage/hours.js';
import type { HourTraffic } from '../../../domain/usage/traffic.js';
import type { Database } from '../../database.js';

// Traffic as it was stored (docs/usage.md "Traffic"): appended by the trigger of the bandwidth
// counters (db/migrations/20261209T0102_usage_traffic.ts); this module reads it.

/** Each instance's traffic stored within `hour`, per owner, by instance. */
export async function trafficForHour(db: Database, hour: Date): Promise<HourTraffic[]> {
  const rows = await db
    .selectFrom('usage_traffic')
    .select([
      'instance_id',
      'user_id',
      sql<string>`sum(inbound_bytes)::text`.as('inbound'),
      sql<string>`sum(outbound_bytes)::text`.as('outbound'),
    ])
    .where('recorded_at', '>=', hour)
    .where('recorded_at', '<', addHours(hour, 1))
    .groupBy(['instance_id', 'user_id'])
    .orderBy('instance_id')
    .execute();
  return rows.map((r) => ({
    instanceId: r.instance_id,
    userId: r.user_id,
    inboundBytes: r.inbound,
    outboundBytes: r.outbound,
  }));
}
