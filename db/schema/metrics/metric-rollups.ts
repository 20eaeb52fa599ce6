import type { BigIntColumn, Timestamp } from '../columns.js';

/** An instance's samples summed per bucket (domain/metrics/resolutions.ts). */
export interface InstanceMetricRollupsTable {
  instance_id: string;
  /** 300 or 3600. */
  resolution_s: number;
  bucket_at: Timestamp;
  sample_count: number;
  cpu_percent_sum: number;
  cpu_percent_max: number;
  memory_used_mb_sum: BigIntColumn;
  disk_read_bytes: BigIntColumn;
  disk_write_bytes: BigIntColumn;
  net_rx_bytes: BigIntColumn;
  net_tx_bytes: BigIntColumn;
}
