import type { Timestamp } from '../columns.js';

// Per-user quotas: no row, or a null column, is unlimited.

export interface UserQuotasTable {
  user_id: string;
  instances: number | null;
  cpu_cores: number | null;
  memory_mb: number | null;
  disk_mb: number | null;
  volumes: number | null;
  ips: number | null;
  updated_at: Timestamp;
}
