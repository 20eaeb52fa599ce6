import type { OfferedTask } from '../../../db/repositories/hypervisors/agent-task-leases.js';
import { type AgentTask, stepKey } from '../../../domain/agent-protocol.js';

/**
 * A task as its agent receives it from a long poll (`GET /tasks/next`), leased to it; its params are
 * those the poll opened for it (services/agents/task-poll.ts).
 */
export const serializeOfferedTask = (task: OfferedTask): AgentTask => ({
  object: 'agent_task',
  attributes: {
    task_id: task.id,
    type: task.type,
    params: task.params,
    step: stepKey(task),
    attempt: task.attempt,
    correlation_id: task.correlation_id,
    trace_parent: task.trace_parent,
    next_sequence: task.last_sequence + 1,
    lease_expires_at: task.lease_expires_at!.toISOString(),
    created_at: task.created_at.toISOString(),
  },
});
