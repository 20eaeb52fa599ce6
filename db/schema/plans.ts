import type { ColumnType, Generated } from 'kysely';
import type { HostRequirement } from '../../domain/instances/host-requirements.js';
import type { Timestamp } from './columns.js';

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
  created_at: Timestamp;
}
