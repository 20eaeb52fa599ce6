import { listEvacuationItems } from '../../db/repositories/moves/evacuation-items.js';
import { type EvacuationRow, findEvacuation } from '../../db/repositories/moves/evacuations.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { type EvacuationControl, mayControl } from '../../domain/evacuations/states.js';
import {
  cancelEvacuation,
  pauseEvacuation,
  resumeEvacuation,
} from '../../workflows/evacuate-hypervisor/definitions.js';
import type { ServiceDeps } from '../context.js';
import { rollBackMigration } from '../migrations/control.js';
import { undoStorageMoveWith } from '../storage-moves/control.js';
import { apiErrorOfUpdate } from '../workflow-failures.js';

const UPDATES = { pause: pauseEvacuation, resume: resumeEvacuation, cancel: cancelEvacuation } as const;

export async function getEvacuation(
  deps: Pick<ServiceDeps, 'db'>,
  evacuationId: string,
): Promise<EvacuationRow> {
  const evacuation = await findEvacuation(deps.db, evacuationId);
  if (!evacuation) throw notFound();
  return evacuation;
}

/**
 * Pauses, resumes or cancels an evacuation. The run decides (its update validator asks the same
 * rule against its own state) and records the new state before it answers. Paused, it starts no
 * new move and lets those under way finish. Cancelled, it starts none either, and each migration
 * under way is asked to roll back as an administrator's cancel would: one before its point of no
 * return rolls back, the instance staying where it was; one past it refuses and finishes. None is
 * abandoned: the run ends once every one has.
 */
export async function controlEvacuation(
  deps: ServiceDeps,
  actor: Actor,
  request: { evacuationId: string; control: EvacuationControl; reason?: string | undefined },
): Promise<EvacuationRow> {
  const evacuation = await getEvacuation(deps, request.evacuationId);
  const verdict = mayControl(evacuation.state, request.control);
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
  try {
    await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.workflow.getHandle(evacuation.workflow_id).executeUpdate(UPDATES[request.control], {
        args: [{ actor: actorName(actor), ...(request.reason ? { reason: request.reason } : {}) }],
      }),
    );
  } catch (error) {
    throw apiErrorOfUpdate(error);
  }
  if (request.control === 'cancel') await rollBackMoves(deps, actor, evacuation, request.reason);
  return getEvacuation(deps, request.evacuationId);
}

async function rollBackMoves(
  deps: ServiceDeps,
  actor: Actor,
  evacuation: EvacuationRow,
  reason: string | undefined,
): Promise<void> {
  const items = await listEvacuationItems(deps.db, evacuation.id);
  for (const item of items) {
    if (item.state !== 'migrating') continue;
    const why = reason ?? `Evacuation ${evacuation.id} cancelled`;
    try {
      if (item.migration_id)
        await rollBackMigration(deps, actor, { migrationId: item.migration_id, kind: 'cancel', reason: why });
      else if (item.storage_move_id)
        await undoStorageMoveWith(deps, actor, { moveId: item.storage_move_id, kind: 'cancel', reason: why });
    } catch (error) {
      // Past its point of no return, or ended meanwhile: it finishes as it would have.
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
    }
  }
}
