import { findTaskWithOperation } from '../../db/repositories/hypervisors/agent-task-lists.js';
import type { Instance } from '../../db/repositories/instances/instances.js';
import type { Actor } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { POWER_ACTIONS, type PowerAction } from '../../domain/instances/statuses.js';
import type { ServiceDeps } from '../context.js';
import { deleteInstance } from '../instances/lifecycle.js';
import { requestPowerAction } from '../instances/power.js';

/**
 * The operations a failed task is retried as, asked again by the administrator: those whose
 * request carries nothing but its kind. A rebuild, restore or migration is asked for again with
 * its own choices (image, backup, target).
 */
const RETRIED_KINDS: readonly string[] = [...POWER_ACTIONS, 'delete'];

/**
 * Retries the operation a failed task served: a new operation of the same kind on the same
 * instance, begun as any is (the instance's status and running operation decide).
 */
export async function retryTask(
  deps: ServiceDeps,
  admin: Extract<Actor, { type: 'admin' }>,
  request: { taskId: string; correlationId: string | null },
): Promise<Instance> {
  const task = await findTaskWithOperation(deps.db, request.taskId);
  if (!task) throw notFound();
  const refuse = (detail: string) => new ApiError('SVC-CONFLICT-409', { detail });
  if (!['failed', 'abandoned', 'cancelled'].includes(task.status))
    throw refuse(`Only a task that failed is retried; this one is ${task.status}.`);
  const kind = task.operation_kind;
  if (!kind || !task.instance_id || !RETRIED_KINDS.includes(kind))
    throw refuse(`A ${task.type} task is not retried from here; ask for its operation again.`);
  if (task.operation_state === 'running')
    throw refuse('Its operation is still running: the step is being tried again.');
  const asked = { instanceId: task.instance_id, correlationId: request.correlationId };
  return kind === 'delete'
    ? deleteInstance(deps, admin, asked)
    : requestPowerAction(deps, admin, { ...asked, action: kind as PowerAction });
}
