import type { ColumnType, Generated } from 'kysely';
import type { Finding, WarningCode } from '../../../domain/migrations/preflight.js';
import type { MigrationMode, MigrationStrategy } from '../../../domain/migrations/states.js';
import type { StorageMoveState } from '../../../domain/storage-moves/states.js';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

// The tables of storage moves: each move of an instance's disks between backends, and its history.

export interface StorageMovesTable {
  id: string;
  instance_id: string;
  hypervisor_id: string;
  from_backend: string;
  to_backend: string;
  disks: Json<{ disk: string; size_mb: number }[]>;
  mode: MigrationMode;
  strategy: MigrationStrategy;
  state: Generated<StorageMoveState>;
  operation_id: string;
  workflow_id: string;
  requested_by: string;
  reason: string | null;
  warnings: ColumnType<Finding<WarningCode>[], string | undefined, string>;
  failed_step: string | null;
  failure: NullableJson<Record<string, unknown>>;
  recovery: NullableJson<Record<string, unknown>>;
  retain_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface StorageMoveEventsTable {
  id: Generated<string>;
  move_id: string;
  state: StorageMoveState;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
  at: Timestamp;
}
