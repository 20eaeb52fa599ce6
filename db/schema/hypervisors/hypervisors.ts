import type { ColumnType, Generated } from 'kysely';
import type { HypervisorStatus } from '../../../domain/hypervisors.js';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

export interface HypervisorsTable {
  id: Generated<string>;
  name: string;
  location_id: string;
  status: Generated<HypervisorStatus>;
  maintenance: Generated<boolean>;
  capabilities: Json<string[]>;
  storage_backends: Json<string[]>;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  free_cpu_cores: number | null;
  free_memory_mb: number | null;
  free_disk_mb: number | null;
  agent_version: string | null;
  reported_capabilities: NullableJson<string[]>;
  /** Capabilities the administrator takes away from what the agent reports. */
  withheld_capabilities: ColumnType<string[], string | undefined, string>;
  /** Mbit/s the moves out of it share (domain/migrations/bandwidth-budget.ts); null: no budget. */
  migration_bandwidth_mbps: number | null;
  /** When its agent last sent the guests it holds (api/agent/inventory.ts). */
  inventory_reported_at: NullableTimestamp;
  last_seen_at: NullableTimestamp;
  enrolled_at: NullableTimestamp;
  architecture: Generated<string>;
  virtualization: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
