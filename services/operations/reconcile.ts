import { type WorkflowExecutionStatusName, WorkflowNotFoundError } from '@temporalio/client';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import { cancelTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-queue.js';
import { abandonOperation } from '../../db/repositories/instances/instance-operation-ends.js';
import {
  listLingeringOperations,
  type ParentRun,
} from '../../db/repositories/instances/instance-operation-repairs.js';
import { statusAfterFailure } from '../../domain/instances/operations.js';
import { releaseArtifactsOfAbandoned } from '../backups/abandoned.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow, type WorkflowInput, type WorkflowType } from '../workflow-starts.js';

/** What a round did, by the instance of each operation: a run started, an operation abandoned. */
export interface ReconcileReport {
  readonly started: readonly string[];
  readonly abandoned: readonly string[];
}

type Lingering = Awaited<ReturnType<typeof listLingeringOperations>>[number];

/** A run's status, `missing` when Temporal has no run of that id, undefined when Temporal is unreachable. */
async function statusOf(
  deps: ServiceDeps,
  workflowId: string,
): Promise<WorkflowExecutionStatusName | 'missing' | undefined> {
  try {
    const description = await deps.temporal.withDeadline(
      Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS,
      () => deps.temporal.workflow.getHandle(workflowId).describe(),
    );
    return description.status.name;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'missing';
    deps.logger.warn('operation reconciliation: Temporal unavailable', { error });
    return undefined;
  }
}

/**
 * The retry path of operation starts, and the repair of runs that vanished. For every operation
 * still running after OPERATION_RECONCILE_AFTER_MS, Temporal is asked about its workflow:
 * - no such workflow (the service crashed between its commit and the start): started now, from
 *   the recorded input; the id policy makes a repeated start join the existing run. An operation
 *   whose run is a child (a plan change's move) has its parent started instead, which starts it:
 *   what the move was for is carried on, not lost;
 * - the run closed without settling (terminated by an operator, timed out), or the parent closed
 *   without starting it: its tasks are withdrawn and the operation is abandoned, which puts the
 *   instance back where a failure would.
 * An unreachable Temporal leaves everything for the next round.
 */
export async function reconcileOperations(deps: ServiceDeps): Promise<ReconcileReport> {
  const lingering = await listLingeringOperations(deps.db, deps.config.OPERATION_RECONCILE_AFTER_MS);
  const started: string[] = [];
  const abandoned: string[] = [];
  for (const operation of lingering) {
    let status = await statusOf(deps, operation.workflow_id);
    if (status === undefined) return { started, abandoned };
    const parent = parentOf(operation);
    if (status === 'missing' && parent) {
      status = await statusOf(deps, parent.workflowId);
      if (status === undefined) return { started, abandoned };
      if (status === 'missing') {
        await startRun(deps, operation, parent);
        started.push(operation.instance_id);
        continue;
      }
    }
    if (status === 'missing') {
      await startRun(deps, operation, {
        workflowId: operation.workflow_id,
        workflowType: operation.workflow_type,
        workflowInput: operation.workflow_input,
        operation: operation.kind,
      });
      started.push(operation.instance_id);
    } else if (status !== 'RUNNING' && (await abandon(deps, operation, status)))
      abandoned.push(operation.instance_id);
  }
  return { started, abandoned };
}

const parentOf = (operation: Lingering): ParentRun | undefined =>
  operation.parent_workflow_id && operation.parent_workflow_type && operation.parent_operation
    ? {
        workflowId: operation.parent_workflow_id,
        workflowType: operation.parent_workflow_type,
        workflowInput: operation.parent_workflow_input,
        operation: operation.parent_operation,
      }
    : undefined;

async function startRun(deps: ServiceDeps, operation: Lingering, run: ParentRun): Promise<void> {
  const input = run.workflowInput as WorkflowInput<WorkflowType>;
  const recorded = operation.workflow_input as { operation: { hypervisorId: string } };
  await startWorkflow(deps, {
    type: run.workflowType as WorkflowType,
    workflowId: run.workflowId,
    input,
    searchAttributes: {
      instance: operation.instance_id,
      hypervisor: recorded.operation.hypervisorId,
      operation: run.operation,
    },
    correlationId: null,
  });
  deps.logger.warn('operation reconciliation: started a workflow that was never started', {
    operation_id: operation.id,
    workflow_id: run.workflowId,
  });
}

async function abandon(deps: ServiceDeps, operation: Lingering, status: string): Promise<boolean> {
  await cancelTasksOfWorkflow(deps.db, operation.workflow_id);
  const previous = statusAfterFailure(operation.kind, operation.from_status);
  const instanceId = await deps.db.transaction().execute(async (trx) => {
    const settled = await abandonOperation(trx, operation.id, previous, {
      code: 'ABANDONED',
      message: `The operation's run ended (${status}) before it settled.`,
    });
    if (settled) {
      await releaseArtifactsOfAbandoned(trx, operation);
      await recordActivity(trx, {
        instanceId: settled,
        actor: 'system',
        event: `instance.${operation.kind}.abandoned`,
        detail: { operation_id: operation.id, status: previous, workflow_status: status },
      });
    }
    return settled;
  });
  if (!instanceId) return false;
  deps.logger.warn('operation reconciliation: abandoned an operation whose run ended', {
    operation_id: operation.id,
    workflow_id: operation.workflow_id,
  });
  return true;
}
