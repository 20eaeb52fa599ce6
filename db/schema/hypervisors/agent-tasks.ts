import type { Generated } from 'kysely';
import type { AgentReportKind, AgentTaskStatus } from '../../../domain/agent-protocol.js';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

// The tables of the agent-task bridge: each task a hypervisor's agent runs, and its reports.

export interface AgentTasksTable {
  id: Generated<string>;
  hypervisor_id: string;
  type: string;
  params: Json<Record<string, unknown>>;
  status: Generated<AgentTaskStatus>;
  task_token: Buffer;
  workflow_id: string;
  run_id: string;
  activity_id: string;
  attempt: number;
  correlation_id: string | null;
  /** The W3C traceparent of the activity that queued it, while traces are on. */
  trace_parent: string | null;
  leased_to: string | null;
  leased_at: NullableTimestamp;
  lease_expires_at: NullableTimestamp;
  last_sequence: Generated<number>;
  progress: NullableJson<Record<string, unknown>>;
  result: NullableJson<Record<string, unknown>>;
  error: NullableJson<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface AgentTaskReportsTable {
  task_id: string;
  sequence: number;
  kind: AgentReportKind;
  payload: Json<unknown>;
  response: Json<unknown>;
  created_at: Timestamp;
  delivered_at: NullableTimestamp;
}
