import { CancellationScope, isCancellation, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { InstanceStatus } from '../../domain/instances/statuses.js';
import type { OperationContext } from '../../domain/operation-context.js';
import { describeFailure } from './failures.js';
import { Saga } from './saga.js';
import { bookkeeping } from './steps.js';

export interface OperationOutcome<T> {
  /**
   * The status the instance ends in: what the hypervisor reported, not what was hoped for;
   * `unchanged` for an operation that holds the instance without changing its status.
   */
  readonly status: InstanceStatus | 'unchanged';
  readonly detail?: Record<string, unknown>;
  readonly result: T;
}

/** Shows the step a running workflow is at, in the Temporal UI's current details. */
export function step(description: string): void {
  setCurrentDetails(`**Step:** ${description}`);
}

/**
 * Runs an instance operation's runbook and settles the operation record. On failure or
 * cancellation, in a non-cancellable scope: the run's agent tasks are withdrawn, the saga's
 * compensations run in reverse, and the operation is settled as failed (or cancelled), which puts
 * the instance where the operations model says. Settling is a compare-and-set, so a run that was
 * preempted (kill over a hung stop) changes nothing when it ends.
 */
export async function runOperation<T>(
  operation: OperationContext,
  runbook: (saga: Saga) => Promise<OperationOutcome<T>>,
): Promise<T> {
  const { completeOperation, failOperation, cancelAgentTasksOfWorkflow } = bookkeeping();
  const saga = new Saga();
  try {
    const outcome = await runbook(saga);
    step('Recording the outcome');
    await completeOperation({
      operationId: operation.operationId,
      status: outcome.status,
      detail: outcome.detail ?? {},
    });
    step('Done');
    return outcome.result;
  } catch (error) {
    const cancelled = isCancellation(error);
    await CancellationScope.nonCancellable(async () => {
      step(cancelled ? 'Cancelled: cleaning up' : 'Failed: cleaning up');
      await cancelAgentTasksOfWorkflow(workflowInfo().workflowId);
      const compensation = await saga.compensate();
      await failOperation({
        operationId: operation.operationId,
        cancelled,
        error: describeFailure(error),
        compensationFailures: compensation.failed,
      });
    });
    throw error;
  }
}
