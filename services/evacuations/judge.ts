import { countMigrationsInto } from '../../db/repositories/moves/evacuation-queue.js';
import type { EvacuationRow } from '../../db/repositories/moves/evacuations.js';
import { hypervisorMigrationFacts } from '../../db/repositories/moves/hypervisor-migration-facts.js';
import { instanceMigrationFacts } from '../../db/repositories/moves/migration-facts.js';
import { migrationsOutOfEach } from '../../db/repositories/moves/migration-sources.js';
import { refusalPasses, whyNot } from '../../domain/evacuations/plan.js';
import type { EvacuationItemState, EvacuationPolicy } from '../../domain/evacuations/states.js';
import type { StorageBackend } from '../../domain/hypervisors.js';
import { mayLeaveHost } from '../../domain/migrations/outbound.js';
import type { Finding, HypervisorFacts } from '../../domain/migrations/preflight.js';
import { preflight } from '../../domain/migrations/preflight.js';
import type { ServiceDeps } from '../context.js';
import { movePolicy } from '../moves/settings.js';
import { readStorageMovePreflight } from '../storage-moves/preflight.js';

export type Judged =
  /** A target with a free slot takes it. */
  | { readonly verdict: 'go'; readonly targetId?: string }
  /** A target would take it, but every such target has its slots taken now. */
  | { readonly verdict: 'full' }
  /** Refused for now, for a reason that passes (another operation, a lease, a copy being removed). */
  | { readonly verdict: 'busy'; readonly reasons: Finding<string>[] }
  /** Refused until someone changes something. */
  | { readonly verdict: 'blocked'; readonly reasons: Finding<string>[] }
  /** No longer on the node: deleted, or moved by someone else. */
  | { readonly verdict: 'gone'; readonly state: EvacuationItemState; readonly reasons: Finding<string>[] };

/** The hypervisors as preflight judges them, the migrations under way into each, and out of each. */
export interface Plane {
  readonly hypervisors: HypervisorFacts[];
  readonly into: Map<string, number>;
  readonly outOf: Map<string, string[]>;
}

/** Read once for the instances one step judges. */
export async function readPlane(deps: Pick<ServiceDeps, 'db'>): Promise<Plane> {
  const [hypervisors, into, outOf] = await Promise.all([
    hypervisorMigrationFacts(deps.db),
    countMigrationsInto(deps.db),
    migrationsOutOfEach(deps.db),
  ]);
  return { hypervisors, into, outOf };
}

/**
 * Whether the source has a slot for one more move out (MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR): when
 * not, the move waits ('full'), whatever the evacuation's own concurrency, and is not tried.
 */
export function sourceHasSlot(
  deps: Pick<ServiceDeps, 'config'>,
  plane: Plane,
  source: HypervisorFacts,
): boolean {
  return mayLeaveHost({
    hypervisorName: source.name,
    underWay: plane.outOf.get(source.id) ?? [],
    limit: deps.config.MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR,
  }).ok;
}

/**
 * One instance of an evacuation judged now: the migration preflight against the whole plane, then
 * whether the node may let one more move out, then against the targets that have a free slot
 * (fewer migrations into them than the policy allows, counting every migration into them). The
 * target is the one preflight ranks first among those.
 */
export async function judgeEvacuee(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  evacuation: EvacuationRow,
  policy: EvacuationPolicy,
  instanceId: string,
  plane: Plane,
): Promise<Judged> {
  const instance = await instanceMigrationFacts(deps.db, instanceId);
  if (!instance)
    return {
      verdict: 'gone',
      state: 'cancelled',
      reasons: [{ code: 'INSTANCE_DELETED', detail: 'The instance was deleted.' }],
    };
  if (instance.row.hypervisor_id !== evacuation.hypervisor_id)
    return {
      verdict: 'gone',
      state: 'moved',
      reasons: [
        { code: 'ALREADY_ELSEWHERE', detail: 'The instance left the hypervisor by another migration.' },
      ],
    };
  if (evacuation.kind === 'backend') return judgeDisks(deps, evacuation, instanceId);
  const { hypervisors, into } = plane;
  const source = hypervisors.find((h) => h.id === evacuation.hypervisor_id)!;
  const judge = (among: typeof hypervisors) =>
    preflight({
      instance: instance.facts,
      source,
      hypervisors: among,
      mode: policy.mode,
      policy: movePolicy(deps.config),
    });
  const anywhere = judge(hypervisors);
  if (!anywhere.ok) {
    const reasons = whyNot(anywhere);
    return refusalPasses(anywhere) ? { verdict: 'busy', reasons } : { verdict: 'blocked', reasons };
  }
  if (!sourceHasSlot(deps, plane, source)) return { verdict: 'full' };
  const open = judge(
    hypervisors.filter((h) => h.id === source.id || (into.get(h.id) ?? 0) < policy.maxParallelPerTarget),
  );
  return open.ok && open.target ? { verdict: 'go', targetId: open.target.id } : { verdict: 'full' };
}

/** A backend drain's instance: the storage move's preflight, to the drain's other backend. */
async function judgeDisks(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  evacuation: EvacuationRow,
  instanceId: string,
): Promise<Judged> {
  const { report } = await readStorageMovePreflight(deps, {
    instanceId,
    from: evacuation.from_backend as StorageBackend,
    to: evacuation.to_backend as StorageBackend,
    mode: evacuation.mode,
  });
  if (report.ok) return { verdict: 'go' };
  const codes = report.blockers.map((b) => b.code);
  if (codes.includes('NOTHING_ON_BACKEND'))
    return {
      verdict: 'gone',
      state: 'moved',
      reasons: [
        { code: 'NOTHING_ON_BACKEND', detail: 'None of the instance’s disks is on the backend any more.' },
      ],
    };
  const passing = codes.every((c) => c === 'INSTANCE_BUSY' || c === 'INSTANCE_MIGRATING');
  return { verdict: passing ? 'busy' : 'blocked', reasons: report.blockers };
}
