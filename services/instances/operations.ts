import { randomUUID } from 'node:crypto';
import { recordActivity } from '../../db/repositories/activity-log.js';
import { cancelTasksOfWorkflow } from '../../db/repositories/agent-tasks.js';
import {
  abandonOperation,
  beginOperation,
  type PreemptedOperation,
} from '../../db/repositories/instance-operations.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { type InstanceOperation, mayBegin, OPERATION_RULES } from '../../domain/instances/operations.js';
import type { InstanceStatus } from '../../domain/instances/statuses.js';
import { instanceOperationWorkflowId } from '../../domain/workflow-ids.js';
import type { OperationContext } from '../../workflows/lib/operation.js';
import { type Actor, actorName, actorUserId, type ServiceDeps } from '../context.js';
import { startWorkflow, stepTiming, type WorkflowInput, type WorkflowType } from '../workflow-starts.js';

export interface OperationRequest<W extends WorkflowType> {
  readonly instanceId: string;
  readonly hypervisorId: string;
  readonly kind: InstanceOperation;
  readonly workflowType: W;
  readonly input: (operation: OperationContext) => WorkflowInput<W>;
  readonly correlationId: string | null;
}

export interface BegunOperation {
  readonly operationId: string;
  readonly workflowId: string;
  readonly status: InstanceStatus;
}

/**
 * Begins a long operation on an instance, in the order DESIGN.md asks for: the compare-and-set of
 * the operations model and the activity-log line in one transaction, committed; then, with no
 * transaction open, a preempted run is cancelled and the operation's workflow is started. If the
 * start fails, the operation is closed and the instance put back (503); a start lost to a crash
 * is made by the reconciler from the recorded input.
 */
export async function beginInstanceOperation<W extends WorkflowType>(
  deps: ServiceDeps,
  actor: Actor,
  request: OperationRequest<W>,
): Promise<BegunOperation> {
  const operationId = randomUUID();
  const workflowId = instanceOperationWorkflowId(request.kind, request.instanceId, operationId);
  const operation: OperationContext = {
    operationId,
    instanceId: request.instanceId,
    hypervisorId: request.hypervisorId,
    kind: request.kind,
    correlationId: request.correlationId,
    timing: stepTiming(deps.config),
  };
  const input = request.input(operation);

  const begun = await deps.db.transaction().execute(async (trx) => {
    const result = await beginOperation(trx, {
      operationId,
      instanceId: request.instanceId,
      kind: request.kind,
      workflowId,
      workflowType: request.workflowType,
      workflowInput: input,
      actor: actorName(actor),
      correlationId: request.correlationId,
    });
    if (result.begun) {
      await recordActivity(trx, {
        instanceId: request.instanceId,
        userId: actorUserId(actor),
        actor: actorName(actor),
        event: `instance.${request.kind}.requested`,
        detail: {
          operation_id: operationId,
          ...(result.preempted ? { preempts: result.preempted.kind } : {}),
        },
        correlationId: request.correlationId,
      });
    }
    return result;
  });
  if (!begun.begun) {
    if (!begun.facts) throw notFound();
    const verdict = mayBegin(request.kind, begun.facts);
    throw verdict.ok ? new ApiError('SVC-OP-409') : new ApiError(verdict.code, { detail: verdict.detail });
  }

  if (begun.preempted) await preempt(deps, begun.preempted);
  try {
    await startWorkflow(deps, {
      type: request.workflowType,
      workflowId,
      input,
      searchAttributes: {
        instance: request.instanceId,
        hypervisor: request.hypervisorId,
        operation: request.kind,
      },
      correlationId: request.correlationId,
    });
  } catch (error) {
    await abandonOperation(deps.db, operationId, begun.fromStatus);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return { operationId, workflowId, status: OPERATION_RULES[request.kind].during };
}

/**
 * The preempted operation's record is already closed by the compare-and-set; here its tasks are
 * withdrawn (the agent hears `stop` on its next report) and its run is cancelled. Its cleanup
 * then settles nothing, because the instance belongs to the new operation.
 */
async function preempt(deps: ServiceDeps, preempted: PreemptedOperation): Promise<void> {
  await cancelTasksOfWorkflow(deps.db, preempted.workflowId);
  try {
    await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.workflow.getHandle(preempted.workflowId).cancel(),
    );
  } catch (error) {
    deps.logger.warn('could not cancel a preempted operation run', {
      workflow_id: preempted.workflowId,
      error,
    });
  }
}
