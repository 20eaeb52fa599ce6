import type { BigIntColumn, Timestamp } from '../columns.js';

export interface InstanceMetricsTable {
  instance_id: string;
  sampled_at: Timestamp;
  hypervisor_id: string;
  cpu_percent: number;
  memory_used_mb: number;
  disk_read_bytes: BigIntColumn;
  disk_write_bytes: BigIntColumn;
  net_rx_bytes: BigIntColumn;
  net_tx_bytes: BigIntColumn;
}
