import { ActivityNotFoundError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  cancelQueuedTask,
  findTaskWithOperation,
  requeueCancelledTask,
} from '../../db/repositories/hypervisors/agent-task-lists.js';
import { PANEL_TASK_FAILURES } from '../../domain/agent-tasks.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

const CODE = PANEL_TASK_FAILURES.cancelledByProvider;

/**
 * Cancels a task no agent has taken yet. The row leaves the queue first (no agent can lease it
 * after), then the activity waiting on it is failed, not to be retried, so its operation fails
 * the way any failed step does and the instance returns to where it was. Should Temporal not
 * answer, the task goes back to the queue and nothing has changed (503).
 */
export async function cancelTask(deps: ServiceDeps, taskId: string): Promise<void> {
  const withdrawn = await cancelQueuedTask(deps.db, taskId, CODE);
  if (!withdrawn) {
    const task = await findTaskWithOperation(deps.db, taskId);
    if (!task) throw notFound();
    throw new ApiError('SVC-CONFLICT-409', {
      detail: `Only a queued task can be cancelled; this one is ${task.status}.`,
    });
  }
  try {
    await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.activity.fail(
        withdrawn.task_token,
        ApplicationFailure.create({
          type: CODE,
          message: 'An administrator cancelled the task before an agent took it.',
          nonRetryable: true,
        }),
      ),
    );
  } catch (error) {
    // Its run has already ended: nothing waits on the task any more, and it stays cancelled.
    if (error instanceof ActivityNotFoundError) return;
    await requeueCancelledTask(deps.db, taskId, CODE);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
}
