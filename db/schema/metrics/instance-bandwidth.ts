import type { ColumnType } from 'kysely';
import type { BigIntColumn, Timestamp } from '../columns.js';

/** An instance's traffic in one billing period (domain/networks/bandwidth.ts). */
export interface InstanceBandwidthTable {
  instance_id: string;
  /** The first day of the month, UTC. */
  period: ColumnType<string, string, string>;
  inbound_bytes: BigIntColumn;
  outbound_bytes: BigIntColumn;
  last_sample_at: Timestamp;
}
