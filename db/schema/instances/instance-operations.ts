import type { Generated } from 'kysely';
import type { InstanceOperation, OperationState } from '../../../domain/instances/operations.js';
import type { InstanceStatus } from '../../../domain/instances/statuses.js';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

export interface InstanceOperationsTable {
  id: string;
  instance_id: string;
  kind: InstanceOperation;
  state: Generated<OperationState>;
  from_status: InstanceStatus;
  workflow_id: string;
  workflow_type: string;
  workflow_input: Json<unknown>;
  actor: string;
  correlation_id: string | null;
  outcome: NullableJson<Record<string, unknown>>;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
  /** The run that starts this operation's run as its child; null: its own run is started directly. */
  parent_workflow_id: Generated<string | null>;
  parent_workflow_type: Generated<string | null>;
  parent_workflow_input: NullableJson<unknown>;
  parent_operation: Generated<InstanceOperation | null>;
}
