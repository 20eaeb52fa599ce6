import type { TaskRow } from '../../../db/repositories/hypervisors/agent-task-lists.js';
import { AGENT_TASK_STATUSES } from '../../../domain/agent-protocol.js';
import { INSTANCE_OPERATIONS, OPERATION_STATES } from '../../../domain/instances/operations.js';
import { z } from '../../zod.js';

const AgentTaskAttributes = z
  .object({
    uuid: z.string().uuid(),
    type: z.string().openapi({ example: 'instance.power' }),
    state: z.enum(AGENT_TASK_STATUSES),
    attempt: z.number().int().openapi({ description: 'The step’s attempt this task is (from 1).' }),
    hypervisor_id: z.string().uuid(),
    instance_id: z.string().uuid().nullable(),
    operation: z
      .object({ id: z.string().uuid(), kind: z.enum(INSTANCE_OPERATIONS), state: z.enum(OPERATION_STATES) })
      .nullable()
      .openapi({
        description: 'The instance operation the task serves; null for a migration’s or a probe’s.',
      }),
    workflow_id: z.string(),
    request_id: z.string().nullable(),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .openapi({ description: 'Why it failed or was withdrawn, as the agent or the panel said.' }),
    age_ms: z.number().int().openapi({ description: 'Since it was queued.' }),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi('AgentTaskAttributes');

export const AgentTaskEnvelope = z
  .object({ object: z.literal('agent_task'), attributes: AgentTaskAttributes })
  .openapi('AgentTask');

const errorOf = (error: Record<string, unknown> | null) =>
  error ? { code: String(error.code ?? 'FAILED'), message: String(error.message ?? '') } : null;

/** An agent task as administrators see it; never its parameters (they may hold a sealed secret) or token. */
export function serializeAgentTask(row: TaskRow, now = Date.now()): z.infer<typeof AgentTaskEnvelope> {
  return {
    object: 'agent_task',
    attributes: {
      uuid: row.id,
      type: row.type,
      state: row.status,
      attempt: row.attempt,
      hypervisor_id: row.hypervisor_id,
      instance_id: row.instance_id,
      operation:
        row.operation_id && row.operation_kind && row.operation_state
          ? { id: row.operation_id, kind: row.operation_kind, state: row.operation_state }
          : null,
      workflow_id: row.workflow_id,
      request_id: row.correlation_id,
      error: errorOf(row.error),
      age_ms: Math.max(0, now - row.created_at.getTime()),
      created_at: row.created_at.toISOString(),
      started_at: row.started_at?.toISOString() ?? null,
      finished_at: row.finished_at?.toISOString() ?? null,
    },
  };
}
