import type { ColumnType, Generated } from 'kysely';
import type { HostRequirement } from '../../../domain/instances/host-requirements.js';
import type { Timestamp } from '../columns.js';

export interface PlansTable {
  id: Generated<string>;
  code: string;
  name: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  host_requirements: ColumnType<HostRequirement[], string | undefined, string>;
  /** False: withdrawn from sale; customers neither list nor order it. */
  is_public: Generated<boolean>;
  /** The location it is offered in; null: every location. */
  location_id: Generated<string | null>;
  /** Customers move between public plans of one group; null: only an administrator changes it. */
  resize_group: Generated<string | null>;
  monthly_price_cents: Generated<number | null>;
  monthly_transfer_gb: Generated<number | null>;
  created_at: Timestamp;
}
