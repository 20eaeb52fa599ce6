import { type WorkflowExecutionStatusName, WorkflowNotFoundError } from '@temporalio/client';
import { recordActivity } from '../../db/repositories/activity-log.js';
import { cancelTasksOfWorkflow } from '../../db/repositories/agent-tasks.js';
import { abandonOperation, listLingeringOperations } from '../../db/repositories/instance-operations.js';
import { statusAfterFailure } from '../../domain/instances/operations.js';
import { releaseArtifactsOfAbandoned } from '../backups/abandoned.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow, type WorkflowInput, type WorkflowType } from '../workflow-starts.js';

export interface ReconcileReport {
  readonly started: number;
  readonly abandoned: number;
}

/**
 * The retry path of operation starts, and the repair of runs that vanished. For every operation
 * still running after OPERATION_RECONCILE_AFTER_MS, Temporal is asked about its workflow:
 * - no such workflow (the service crashed between its commit and the start): started now, from
 *   the recorded input; the id policy makes a repeated start join the existing run;
 * - the run closed without settling (terminated by an operator, timed out): its tasks are
 *   withdrawn and the operation is abandoned, which puts the instance back where a failure would.
 * An unreachable Temporal leaves everything for the next round.
 */
export async function reconcileOperations(deps: ServiceDeps): Promise<ReconcileReport> {
  const lingering = await listLingeringOperations(deps.db, deps.config.OPERATION_RECONCILE_AFTER_MS);
  let started = 0;
  let abandoned = 0;
  for (const operation of lingering) {
    const handle = deps.temporal.workflow.getHandle(operation.workflow_id);
    let status: WorkflowExecutionStatusName | undefined;
    try {
      const description = await deps.temporal.withDeadline(
        Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS,
        () => handle.describe(),
      );
      status = description.status.name;
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) {
        deps.logger.warn('operation reconciliation: Temporal unavailable', { error });
        return { started, abandoned };
      }
    }

    if (status === undefined) {
      const input = operation.workflow_input as WorkflowInput<WorkflowType> & {
        operation: { hypervisorId: string };
      };
      await startWorkflow(deps, {
        type: operation.workflow_type as WorkflowType,
        workflowId: operation.workflow_id,
        input,
        searchAttributes: {
          instance: operation.instance_id,
          hypervisor: input.operation.hypervisorId,
          operation: operation.kind,
        },
        correlationId: null,
      });
      deps.logger.warn('operation reconciliation: started a workflow that was never started', {
        operation_id: operation.id,
        workflow_id: operation.workflow_id,
      });
      started++;
    } else if (status !== 'RUNNING') {
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
      if (instanceId) {
        deps.logger.warn('operation reconciliation: abandoned an operation whose run ended', {
          operation_id: operation.id,
          workflow_id: operation.workflow_id,
        });
        abandoned++;
      }
    }
  }
  return { started, abandoned };
}
