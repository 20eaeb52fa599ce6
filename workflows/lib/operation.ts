import {
  CancellationScope,
  isCancellation,
  patched,
  setCurrentDetails,
  workflowInfo,
} from '@temporalio/workflow';
import { OPERATION_RULES } from '../../domain/instances/operations.js';
import type { InstanceStatus, PowerState } from '../../domain/instances/statuses.js';
import type { OperationContext } from '../../domain/operation-context.js';
import { describeFailure } from './failures.js';
import { reportedPowerState } from './guest-power.js';
import { PATCHES } from './patches.js';
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
      const failure = describeFailure(error);
      const powerState = cancelled ? undefined : await powerStateAfterFailure(operation, failure.code);
      await failOperation({
        operationId: operation.operationId,
        cancelled,
        error: failure,
        compensationFailures: compensation.failed,
        ...(powerState ? { powerState } : {}),
      });
    });
    throw error;
  }
}

/**
 * Failures after which asking the hypervisor cannot tell more: it is not answering (asking again
 * would only wait again), it does not know the instance, or no agent ever took the task (an
 * administrator withdrew it from the queue), so the guest is as it was. A code new to this list
 * changes no earlier run's history: those runs never met it.
 */
const SILENT = ['AGENT_TASK_NOT_PICKED_UP', 'TIMEOUT', 'INSTANCE_NOT_FOUND', 'CANCELLED_BY_PROVIDER'];

/**
 * After a failed operation that puts the instance back where it was, the guest's power state as
 * its hypervisor reports it, so that the status is settled from it and not assumed (a stop that
 * failed after the guest went down leaves it stopped). Undefined where the hypervisor does not
 * answer, for operations whose failure rule is not "as before" (a failed create or rebuild is an
 * error), and in runs begun before this question existed.
 */
async function powerStateAfterFailure(
  operation: OperationContext,
  code: string,
): Promise<PowerState | undefined> {
  if (OPERATION_RULES[operation.kind].onFailure !== 'previous' || SILENT.includes(code)) return undefined;
  if (!patched(PATCHES.operationFailureSettlesFromHypervisor.id)) return undefined;
  step('Reading the guest’s state from the hypervisor');
  return reportedPowerState(operation, `read the state of instance ${operation.instanceId}`);
}
