import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { recordOperation } from '../../db/records/operations.js';
import { cancelTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-queue.js';
import { abandonOperation } from '../../db/repositories/instances/instance-operation-ends.js';
import type { BeginResult, PreemptedOperation } from '../../db/repositories/instances/instance-operations.js';
import type { Actor } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { WORKFLOW_UNAVAILABLE } from '../../domain/instances/failures.js';
import { type InstanceOperation, statusDuring } from '../../domain/instances/operations.js';
import type { InstanceStatus } from '../../domain/instances/statuses.js';
import type { OperationContext } from '../../domain/operation-context.js';
import { instanceOperationWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow, stepTiming, type WorkflowInput, type WorkflowType } from '../workflow-starts.js';

export interface OperationRequest<W extends WorkflowType> {
  readonly instanceId: string;
  readonly hypervisorId: string;
  readonly kind: InstanceOperation;
  readonly workflowType: W;
  readonly input: (operation: OperationContext) => WorkflowInput<W>;
  readonly correlationId: string | null;
  /**
   * Undoes what the operation's transaction wrote besides the operation (a volume marked
   * `attaching`) when its workflow could not be started and the operation is closed.
   */
  readonly undoIfNotStarted?: (db: Database) => Promise<void>;
}

export interface BegunOperation {
  readonly operationId: string;
  readonly workflowId: string;
  readonly status: InstanceStatus;
}

/** An operation worked out before anything is written: its ids and its workflow's input. */
export interface PlannedOperation<W extends WorkflowType> {
  readonly request: OperationRequest<W>;
  readonly operationId: string;
  readonly workflowId: string;
  readonly input: WorkflowInput<W>;
}

export function planOperation<W extends WorkflowType>(
  deps: Pick<ServiceDeps, 'config'>,
  request: OperationRequest<W>,
): PlannedOperation<W> {
  const operationId = randomUUID();
  const operation: OperationContext = {
    operationId,
    instanceId: request.instanceId,
    hypervisorId: request.hypervisorId,
    kind: request.kind,
    correlationId: request.correlationId,
    timing: stepTiming(deps.config),
  };
  return {
    request,
    operationId,
    workflowId: instanceOperationWorkflowId(request.kind, request.instanceId, operationId),
    input: request.input(operation),
  };
}

/** Records a planned operation in the caller's transaction (db/records/operations.ts). */
export function recordPlannedOperation<W extends WorkflowType>(
  trx: Database,
  actor: Actor,
  plan: PlannedOperation<W>,
) {
  const { request } = plan;
  return recordOperation(trx, actor, {
    operationId: plan.operationId,
    instanceId: request.instanceId,
    kind: request.kind,
    workflowId: plan.workflowId,
    workflowType: request.workflowType,
    workflowInput: plan.input,
    correlationId: request.correlationId,
  });
}

/**
 * After the commit, with no transaction open: a preempted run is cancelled and the operation's
 * workflow started. If the start fails, `revert` closes the operation and puts the instance back
 * (503); `leave` keeps it for the reconciler, which starts it from the recorded input (for an
 * operation whose acceptance is already promised, like a create stored under an Idempotency-Key).
 */
export async function launchOperation<W extends WorkflowType>(
  deps: ServiceDeps,
  plan: PlannedOperation<W>,
  begun: Extract<BeginResult, { begun: true }>,
  onStartFailure: 'revert' | 'leave' = 'revert',
): Promise<BegunOperation> {
  const { request } = plan;
  if (begun.preempted) await preempt(deps, begun.preempted);
  try {
    await startWorkflow(deps, {
      type: request.workflowType,
      workflowId: plan.workflowId,
      input: plan.input,
      searchAttributes: {
        instance: request.instanceId,
        hypervisor: request.hypervisorId,
        operation: request.kind,
      },
      correlationId: request.correlationId,
    });
  } catch (error) {
    if (onStartFailure === 'leave') {
      deps.logger.warn('workflow start failed; the reconciler will start it', {
        workflow_id: plan.workflowId,
        error,
      });
    } else {
      await deps.db.transaction().execute(async (trx) => {
        if (await abandonOperation(trx, plan.operationId, begun.fromStatus, WORKFLOW_UNAVAILABLE))
          await request.undoIfNotStarted?.(trx);
      });
      throw new ApiError('SVC-SYS-503', { cause: error });
    }
  }
  return {
    operationId: plan.operationId,
    workflowId: plan.workflowId,
    status: statusDuring(request.kind, begun.fromStatus),
  };
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
  within?: (trx: Database) => Promise<void>,
): Promise<BegunOperation> {
  const plan = planOperation(deps, request);
  const begun = await deps.db.transaction().execute(async (trx) => {
    const recorded = await recordPlannedOperation(trx, actor, plan);
    await within?.(trx);
    return recorded;
  });
  return launchOperation(deps, plan, begun);
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
