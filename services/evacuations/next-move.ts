import { moveEvacuationItem } from '../../db/repositories/evacuation-items.js';
import { listPendingItems, nextDeferredAt } from '../../db/repositories/evacuation-queue.js';
import { findEvacuation, policyOf } from '../../db/repositories/evacuations.js';
import { findMigration } from '../../db/repositories/migrations.js';
import type { NextMove } from '../../domain/evacuations/moves.js';
import type { ServiceDeps } from '../context.js';
import { judgeEvacuee, readPlane } from './judge.js';
import { putOff, recordMove, startedFrom } from './move-records.js';

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
  const recorded = await findMigration(deps.db, request.migrationId);
  if (recorded) return startedFrom(deps, request.evacuationId, recorded);
  const evacuation = await findEvacuation(deps.db, request.evacuationId);
  if (!evacuation) return { kind: 'none' };
  const policy = policyOf(evacuation);
  let waiting = false;
  const plane = await readPlane(deps);
  for (const item of await listPendingItems(deps.db, evacuation.id, SCAN)) {
    const judged = await judgeEvacuee(deps, evacuation, policy, item.instance_id, plane);
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
    if ('blocked' in move) {
      waiting = (await putOff(deps, evacuation.id, item, move.blocked, policy.maxAttempts)) || waiting;
      continue;
    }
    return startedFrom(deps, evacuation.id, move);
  }
  if (waiting || (await listPendingItems(deps.db, evacuation.id, 1)).length > 0) return { kind: 'waiting' };
  return (await nextDeferredAt(deps.db, evacuation.id)) ? { kind: 'waiting' } : { kind: 'none' };
}
