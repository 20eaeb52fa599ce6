import {
  ChildWorkflowCancellationType,
  executeChild,
  ParentClosePolicy,
  workflowInfo,
} from '@temporalio/workflow';
import type { AgentTaskResult } from '../domain/agent-tasks.js';
import type { Resources } from '../domain/capacity.js';
import type { ErrorCode } from '../domain/errors.js';
import type { HotplugCeiling, ResizeMode } from '../domain/instances/hot-resize.js';
import type { ResizeAfterMove } from '../domain/instances/resize-moves.js';
import { statusOfPowerState } from '../domain/instances/statuses.js';
import type { MigrationState } from '../domain/migrations/states.js';
import type { OperationContext } from '../domain/operation-context.js';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes.js';
import { businessFailure } from './lib/failures.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface ResizeInstanceInput {
  readonly operation: OperationContext;
  /** The size before, which the instance keeps (and its reservation holds again) on failure. */
  readonly from: Resources;
  readonly to: Resources;
  /** How the vCPUs and memory reach the guest (domain/instances/resize.ts howApplied). */
  readonly mode: ResizeMode;
  /** The plan the instance takes; null: it keeps its own (an administrator's own size). */
  readonly planId: string | null;
  /** The room the guest has now, given back to it if a cold change is undone; null: none. */
  readonly fromCeiling: HotplugCeiling | null;
  /** The room a cold change boots the guest with; absent: none. */
  readonly ceiling?: HotplugCeiling;
}

export interface ResizeOutcome {
  readonly size: Resources;
  readonly applied: ResizeMode;
}

/**
 * Runbook: the service held the larger of the two sizes on the hypervisor, under its lock, when it
 * began. The hypervisor gives the guest its new vCPUs and memory (hot, or stopped, resized and
 * started again), then grows the root disk, the one step that cannot be undone, so it comes last.
 * The size the hypervisor reports becomes the instance's, and its reservation that size, in one
 * transaction. On failure the guest is given its old vCPUs and memory back (a task that finds them
 * there changes nothing) and the reservation holds the old size again.
 */
export async function resizeInstance(
  input: ResizeInstanceInput | { readonly afterMove: ResizeAfterMove },
): Promise<ResizeOutcome> {
  if ('afterMove' in input) return moveThenResize(input.afterMove);
  return applyResize(input);
}

/** The migration's endings in which the instance runs on its target (the move committed). */
const MOVED: readonly MigrationState[] = ['COMPLETED', 'CLEANING_UP', 'CLEANED_UP'];

/**
 * Runbook of a change whose host lacks the room: the migration the request recorded (its own
 * preflight, mode and lease) runs as this run's child, a run of its own found by the instance; a
 * move that fails rolls back by itself, holding nothing, and this run ends saying so. Once it
 * committed, the `resize` operation begins on the new hypervisor (quotas and room checked again
 * under their locks) and the change runs as any other; refused there, the instance stays where it
 * moved, as it was.
 */
async function moveThenResize(request: ResizeAfterMove): Promise<ResizeOutcome> {
  const { beginResizeAfterMove } = bookkeeping();
  step('Moving the instance to a hypervisor with the room');
  const { move } = request;
  let moved: { state: MigrationState } | undefined;
  try {
    moved = await executeChild('migrateInstance', {
      workflowId: move.workflowId,
      args: [move.input],
      // The move is a run of its own, ended by its own rules (a recovery waits for an operator).
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      searchAttributes: {
        [SEARCH_ATTRIBUTES.instance]: [request.instanceId],
        [SEARCH_ATTRIBUTES.hypervisor]: [move.input.sourceHypervisorId],
        [SEARCH_ATTRIBUTES.operation]: ['migrate'],
      },
      memo: { correlation_id: workflowInfo().workflowId },
    });
  } catch {
    moved = undefined;
  }
  if (!moved || !MOVED.includes(moved.state)) throw businessFailure('RESIZE_MOVE_FAILED');
  step('Beginning the change on the new hypervisor');
  const begun = await beginResizeAfterMove(request);
  if (!begun.ok) throw businessFailure(begun.code as ErrorCode, begun.detail);
  return applyResize({
    operation: {
      operationId: request.operationId,
      instanceId: request.instanceId,
      hypervisorId: begun.hypervisorId,
      kind: 'resize',
      correlationId: request.correlationId,
      timing: request.timing,
    },
    from: begun.from,
    to: request.to,
    mode: begun.mode,
    planId: request.planId,
    fromCeiling: begun.fromCeiling,
    ...(begun.ceiling ? { ceiling: begun.ceiling } : {}),
  });
}

async function applyResize(input: ResizeInstanceInput): Promise<ResizeOutcome> {
  const { operation, from, to, mode } = input;
  const { holdInstanceSize, recordResize } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  const instanceId = operation.instanceId;
  const task = { hypervisorId: operation.hypervisorId, correlationId: operation.correlationId };
  const guestChanges = to.cpu_cores !== from.cpu_cores || to.memory_mb !== from.memory_mb;
  return runOperation(operation, async (saga) => {
    saga.push('the room held for the new size', () => holdInstanceSize({ instanceId, size: from }));
    let resized: AgentTaskResult<'instance.resize'> | undefined;
    if (guestChanges) {
      // Pushed before the task: one that failed after it changed the guest is undone all the same.
      saga.push('the guest’s new vCPUs and memory', async () => {
        await runTask(
          {
            ...task,
            type: 'instance.resize',
            params: {
              instance_id: instanceId,
              cpu_cores: from.cpu_cores,
              memory_mb: from.memory_mb,
              mode: 'cold',
              ...(input.fromCeiling ? { ceiling: input.fromCeiling } : {}),
            },
          },
          `give instance ${instanceId} its ${from.cpu_cores} vCPUs and ${from.memory_mb} MB back`,
        );
      });
      step(
        mode === 'hot'
          ? 'Adding vCPUs and memory to the running guest'
          : 'Resizing the guest (stop, resize, start)',
      );
      resized = await runTask(
        {
          ...task,
          type: 'instance.resize',
          params: {
            instance_id: instanceId,
            cpu_cores: to.cpu_cores,
            memory_mb: to.memory_mb,
            mode,
            ...(mode === 'cold' && input.ceiling ? { ceiling: input.ceiling } : {}),
          },
        },
        `resize instance ${instanceId} to ${to.cpu_cores} vCPUs and ${to.memory_mb} MB (${mode})`,
      );
    }
    let diskMb = from.disk_mb;
    if (to.disk_mb > from.disk_mb) {
      step('Growing the root disk');
      diskMb = (
        await runTask(
          { ...task, type: 'disk.resize', params: { instance_id: instanceId, size_mb: to.disk_mb } },
          `grow the root disk of instance ${instanceId} to ${to.disk_mb} MB`,
        )
      ).size_mb;
    }
    const size = {
      cpu_cores: resized?.cpu_cores ?? from.cpu_cores,
      memory_mb: resized?.memory_mb ?? from.memory_mb,
      disk_mb: diskMb,
    };
    const applied = resized?.applied ?? 'hot';
    step('Recording the new size');
    await recordResize({
      instanceId,
      size,
      planId: input.planId,
      ...(applied === 'cold' ? { ceiling: resized?.ceiling ?? null } : {}),
    });
    return {
      status: resized ? statusOfPowerState(resized.power_state) : 'unchanged',
      detail: { from, to: size, applied },
      result: { size, applied },
    };
  });
}
