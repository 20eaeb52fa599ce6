import type { Generated } from 'kysely';
import type {
  EvacuationItemState,
  EvacuationKind,
  EvacuationState,
  FailurePolicy,
} from '../../../domain/evacuations/states.js';
import type { ConvergencePolicy } from '../../../domain/migrations/convergence.js';
import type { Finding } from '../../../domain/migrations/preflight.js';
import type { MigrationMode } from '../../../domain/migrations/states.js';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

// The tables of evacuations: each drain of a hypervisor, and its instances.

export interface EvacuationsTable {
  id: string;
  hypervisor_id: string;
  state: Generated<EvacuationState>;
  mode: MigrationMode;
  max_parallel: number;
  max_parallel_per_target: number;
  on_failure: FailurePolicy;
  max_attempts: number;
  /** The convergence policy its moves take; null for evacuations begun before there was one. */
  convergence: NullableJson<ConvergencePolicy>;
  workflow_id: string;
  requested_by: string;
  reason: string | null;
  maintenance_before: boolean;
  kind: Generated<EvacuationKind>;
  /** A backend drain's backends: its instances' disks on `from_backend` move to `to_backend`. */
  from_backend: string | null;
  to_backend: string | null;
  /** A restore's evacuation: the one whose moved instances it brings home. */
  restores: string | null;
  failure: NullableJson<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface EvacuationItemsTable {
  evacuation_id: string;
  instance_id: string;
  position: number;
  state: Generated<EvacuationItemState>;
  attempts: Generated<number>;
  migration_id: string | null;
  /** A backend drain's move of the instance's disks. */
  storage_move_id: string | null;
  target_hypervisor_id: string | null;
  reasons: Json<Finding<string>[]>;
  not_before: NullableTimestamp;
  updated_at: Timestamp;
}
