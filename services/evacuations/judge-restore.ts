import { findHowLeftBy, findWhereMovedBy } from '../../db/repositories/moves/evacuation-restores.js';
import type { EvacuationRow } from '../../db/repositories/moves/evacuations.js';
import { instanceMigrationFacts } from '../../db/repositories/moves/migration-facts.js';
import { refusalPasses } from '../../domain/evacuations/plan.js';
import { restoreeSkipped } from '../../domain/evacuations/restore.js';
import type { EvacuationPolicy } from '../../domain/evacuations/states.js';
import { BLOCKERS, preflight } from '../../domain/migrations/preflight.js';
import type { ServiceDeps } from '../context.js';
import { movePolicy } from '../moves/settings.js';
import { type Judged, type Plane, sourceHasSlot } from './judge.js';

/**
 * One instance of a restore judged now: left where it is when it was deleted, never moved by the
 * evacuation, or moved elsewhere since (domain/evacuations/restore.ts), else the migration preflight with the home
 * node as the requested target, which waits while the node has as many migrations coming in as
 * the policy allows, or while the node the instance is on has as many moves out as it may.
 */
export async function judgeRestoree(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  restore: EvacuationRow,
  policy: EvacuationPolicy,
  instanceId: string,
  plane: Plane,
): Promise<Judged> {
  const home = restore.hypervisor_id;
  const instance = await instanceMigrationFacts(deps.db, instanceId);
  const leftOn = restore.restores ? await findWhereMovedBy(deps.db, restore.restores, instanceId) : null;
  const notMoved =
    restore.restores && leftOn === null
      ? await findHowLeftBy(deps.db, restore.restores, instanceId)
      : undefined;
  const skipped = restoreeSkipped({ at: instance?.row.hypervisor_id, home, leftOn, notMoved });
  if (skipped) return { verdict: 'gone', ...skipped };
  const source = plane.hypervisors.find((h) => h.id === instance?.row.hypervisor_id);
  if (!instance || !source)
    return {
      verdict: 'blocked',
      reasons: [{ code: 'INSTANCE_NOT_PLACED', detail: BLOCKERS.INSTANCE_NOT_PLACED }],
    };
  const report = preflight({
    instance: instance.facts,
    source,
    hypervisors: plane.hypervisors,
    mode: policy.mode,
    targetId: home,
    policy: movePolicy(deps.config),
  });
  if (!report.ok) return { verdict: refusalPasses(report) ? 'busy' : 'blocked', reasons: report.blockers };
  if ((plane.into.get(home) ?? 0) >= policy.maxParallelPerTarget) return { verdict: 'full' };
  if (!sourceHasSlot(deps, plane, source)) return { verdict: 'full' };
  return { verdict: 'go', targetId: home };
}
