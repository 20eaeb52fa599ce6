import { moveEvacuationItem } from '../../db/repositories/moves/evacuation-items.js';
import { listPendingItems, nextDeferredAt } from '../../db/repositories/moves/evacuation-queue.js';
import { findEvacuation, policyOf } from '../../db/repositories/moves/evacuations.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import { findStorageMove } from '../../db/repositories/moves/storage-move-reads.js';
import type { NextMove } from '../../domain/evacuations/moves.js';
import type { EvacuationKind } from '../../domain/evacuations/states.js';
import type { ServiceDeps } from '../context.js';
import { judgeEvacuee, readPlane } from './judge.js';
import { judgeRestoree } from './judge-restore.js';
import { type MoveRecord, putOff, recordMove, startedFrom } from './move-records.js';

const NO_PLANE = { hypervisors: [], into: new Map<string, number>(), outOf: new Map<string, string[]>() };

/** How many waiting instances one call judges before it reports that the window must wait. */
const SCAN = 25;

/**
 * The evacuation's next move, recorded as any migration request is (services/migrations/record.ts)
 * and left for the run to start as its child: the first waiting instance, in the plan's order,
 * that a target with a free slot takes. An instance that cannot move is `blocked` with every
 * reason; one refused for a reason that passes (busy, migrating) is put off and tried again, as
 * often as the policy allows. The migration's id comes from the run, so a retried step finds the
 * move its first attempt recorded.
 */
export async function beginEvacuationMove(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  request: { readonly evacuationId: string; readonly migrationId: string },
): Promise<NextMove> {
  const evacuation = await findEvacuation(deps.db, request.evacuationId);
  if (!evacuation) return { kind: 'none' };
  const recorded = await recordedMove(deps, evacuation.kind, request.migrationId);
  if (recorded) return startedFrom(deps, evacuation.id, recorded);
  const policy = policyOf(evacuation);
  let waiting = false;
  // A backend's drain moves disks on the node itself: no target, no plane to read.
  const plane = evacuation.kind === 'backend' ? NO_PLANE : await readPlane(deps);
  // A restore's moves all go home: the same window, another judge.
  const judge = evacuation.kind === 'restore' ? judgeRestoree : judgeEvacuee;
  for (const item of await listPendingItems(deps.db, evacuation.id, SCAN)) {
    const judged = await judge(deps, evacuation, policy, item.instance_id, plane);
    if (judged.verdict === 'full') {
      waiting = true;
      continue;
    }
    if (judged.verdict === 'gone') {
      await moveEvacuationItem(deps.db, {
        evacuationId: evacuation.id,
        instanceId: item.instance_id,
        from: ['pending'],
        to: judged.state,
        reasons: judged.reasons,
      });
      continue;
    }
    if (judged.verdict !== 'go') {
      waiting = (await putOff(deps, evacuation.id, item, judged, policy.maxAttempts)) || waiting;
      continue;
    }
    const move = await recordMove(deps, evacuation, judged.targetId, item.instance_id, request.migrationId);
    if ('full' in move) {
      waiting = true;
      continue;
    }
    if ('blocked' in move) {
      waiting = (await putOff(deps, evacuation.id, item, move.blocked, policy.maxAttempts)) || waiting;
      continue;
    }
    return startedFrom(deps, evacuation.id, move);
  }
  if (waiting || (await listPendingItems(deps.db, evacuation.id, 1)).length > 0) return { kind: 'waiting' };
  return (await nextDeferredAt(deps.db, evacuation.id)) ? { kind: 'waiting' } : { kind: 'none' };
}

/** The move a retried step's first attempt recorded under the run's id, if it did. */
async function recordedMove(
  deps: Pick<ServiceDeps, 'db'>,
  kind: EvacuationKind,
  moveId: string,
): Promise<MoveRecord | undefined> {
  const found =
    kind === 'backend' ? await findStorageMove(deps.db, moveId) : await findMigration(deps.db, moveId);
  if (!found) return undefined;
  return {
    kind: kind === 'backend' ? 'storage_move' : 'migration',
    id: found.id,
    instance_id: found.instance_id,
    operation_id: found.operation_id,
    target_hypervisor_id: 'target_hypervisor_id' in found ? found.target_hypervisor_id : null,
  };
}
