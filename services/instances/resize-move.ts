import { randomUUID } from 'node:crypto';
import { endUnstartedMigration } from '../../db/records/migrations.js';
import { abandonOperation } from '../../db/repositories/instances/instance-operation-ends.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { WORKFLOW_UNAVAILABLE } from '../../domain/instances/failures.js';
import { heldDuring } from '../../domain/instances/resize.js';
import type { ResizeAfterMove } from '../../domain/instances/resize-moves.js';
import { instanceOperationWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { type RecordedMigration, recordMigration } from '../migrations/record.js';
import { refuseSourceBusy } from '../migrations/source-limit.js';
import { refuseBlocked } from '../moves/request.js';
import { startWorkflow, stepTiming } from '../workflow-starts.js';
import type { ResizeJudgement } from './resize-judgement.js';

type MovingJudgement = ResizeJudgement & { readonly room: { readonly kind: 'move' } };

/** A moving plan change as committed: the migration, and the run that carries the change out. */
export interface RecordedMoveThenResize {
  readonly recorded: RecordedMigration;
  readonly afterMove: ResizeAfterMove;
}

/**
 * The database half of a plan change whose host lacks the room (docs/api.md "Plan changes"): the
 * migration to the judgement's target recorded through the migration request's own path (its
 * preflight, `AUTO` mode, lease; a blocked one refused as a migration request is, nothing
 * written), with, in its transaction, the new size held on the target under its lock (a second
 * change aiming at the same last room is refused before anything moves) and the change's run
 * recorded as the one that starts the migration's (so a crash before the start loses nothing: the
 * reconciler starts that run, services/operations/reconcile.ts).
 */
export async function recordMoveThenResize(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  who: Asker,
  judgement: MovingJudgement,
  correlationId: string | null,
): Promise<RecordedMoveThenResize> {
  const { subject } = judgement;
  const operationId = randomUUID();
  const workflowId = instanceOperationWorkflowId('resize', subject.id, operationId);
  let afterMove: ResizeAfterMove | undefined;
  const recorded = await recordMigration(deps, who, {
    instanceId: subject.id,
    targetId: judgement.room.target.id,
    mode: 'AUTO',
    reason: `plan change to ${judgement.to.cpu_cores} vCPUs, ${judgement.to.memory_mb} MB, ${judgement.to.disk_mb} MB of disk`,
    correlationId,
    forResize: {
      holdOnTarget: heldDuring(judgement.from, judgement.to),
      noRoom: () =>
        new ApiError('SVC-CAPACITY-409', {
          detail:
            'The hypervisor the instance would move to no longer has the room for the new size; nothing was changed.',
        }),
      parentRun: ({ migrationId, plan }) => {
        afterMove = {
          instanceId: subject.id,
          operationId,
          workflowId,
          actor: who,
          to: judgement.to,
          planId: judgement.toPlan?.id ?? null,
          correlationId,
          timing: stepTiming(deps.config),
          move: { migrationId, workflowId: plan.workflowId, input: plan.input },
        };
        return {
          workflowId,
          workflowType: 'resizeInstance',
          workflowInput: { afterMove },
          operation: 'resize',
        };
      },
    },
  });
  if ('blocked' in recorded) {
    refuseSourceBusy(recorded.blocked);
    refuseBlocked('migration', recorded.blocked);
  }
  if (!afterMove) throw new Error('the moving plan change was recorded without its run');
  return { recorded, afterMove };
}

/**
 * A plan change whose host lacks the room, moved first: recorded (above), then one run started for
 * the change, which starts that migration as its child and, once it committed, begins the `resize`
 * operation under the id answered here. A start refused now puts everything back (503).
 */
export async function moveThenResize(
  deps: ServiceDeps,
  who: Asker,
  judgement: MovingJudgement,
  correlationId: string | null,
): Promise<string> {
  const { recorded, afterMove } = await recordMoveThenResize(deps, who, judgement, correlationId);
  const { subject } = judgement;
  try {
    await startWorkflow(deps, {
      type: 'resizeInstance',
      workflowId: afterMove.workflowId,
      input: { afterMove },
      searchAttributes: { instance: subject.id, hypervisor: subject.hypervisor_id, operation: 'resize' },
      correlationId,
    });
  } catch (error) {
    await abandonOperation(
      deps.db,
      recorded.plan.operationId,
      recorded.begun.fromStatus,
      WORKFLOW_UNAVAILABLE,
    );
    await endUnstartedMigration(deps.db, recorded.migrationId, WORKFLOW_UNAVAILABLE);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return afterMove.operationId;
}
