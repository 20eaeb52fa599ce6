import type { ColumnType, Generated } from 'kysely';
import type { ConvergencePolicy } from '../../../domain/migrations/convergence.js';
import type { LiveProgressRecord } from '../../../domain/migrations/live-progress.js';
import type { Finding, WarningCode } from '../../../domain/migrations/preflight.js';
import type { MigrationMode, MigrationState, MigrationStrategy } from '../../../domain/migrations/states.js';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

// The tables of migrations: each move, its history and its transfer tokens (its lease is every
// move's, move-leases.ts).

export interface MigrationsTable {
  id: string;
  instance_id: string;
  source_hypervisor_id: string;
  target_hypervisor_id: string;
  mode: MigrationMode;
  strategy: MigrationStrategy;
  state: Generated<MigrationState>;
  operation_id: string;
  workflow_id: string;
  requested_by: string;
  reason: string | null;
  warnings: ColumnType<Finding<WarningCode>[], string | undefined, string>;
  network_plan: Json<Record<string, unknown>>;
  failed_step: string | null;
  /** How long the guest was unreachable in the move: a cold move's stop-to-start, a live move's downtime. */
  interruption_ms: number | null;
  /** The convergence policy in force for the move; null for migrations recorded before there was one. */
  convergence: NullableJson<ConvergencePolicy>;
  /** A live move's latest figures, then its end (migration-progress.ts); null before its first report. */
  live_progress: NullableJson<LiveProgressRecord>;
  failure: NullableJson<Record<string, unknown>>;
  recovery: NullableJson<Record<string, unknown>>;
  retain_source_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface MigrationEventsTable {
  id: Generated<string>;
  migration_id: string;
  state: MigrationState;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
  at: Timestamp;
}

export interface TransferTokensTable {
  id: Generated<string>;
  migration_id: string;
  disk: string;
  token_hash: string;
  receiver_hypervisor_id: string;
  endpoint_sealed: string | null;
  expires_at: Timestamp;
  redeemed_at: NullableTimestamp;
  voided_at: NullableTimestamp;
  created_at: Timestamp;
}
