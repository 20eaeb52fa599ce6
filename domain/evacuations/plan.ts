import type { Resources } from '../capacity.js';
import {
  type BlockerCode,
  type Finding,
  type HypervisorFacts,
  type InstanceFacts,
  type PreflightReport,
  preflight,
  resourcesMoving,
  type WarningCode,
} from '../migrations/preflight.js';
import type { MigrationMode, MigrationStrategy } from '../migrations/states.js';
import type { MovePolicy } from '../moves/preflight.js';

/** An instance on the node to drain, as preflight judges it. */
export interface Evacuee {
  readonly id: string;
  readonly name: string;
  readonly facts: InstanceFacts;
}

export interface PlannedMove {
  readonly instance: { readonly id: string; readonly name: string };
  readonly target: { readonly id: string; readonly name: string };
  readonly strategy: MigrationStrategy;
  readonly warnings: Finding<WarningCode>[];
}

export interface Unmovable {
  readonly instance: { readonly id: string; readonly name: string };
  readonly blockers: Finding<BlockerCode>[];
}

export interface EvacuationPlan {
  readonly mode: MigrationMode;
  /** In the order the evacuation starts them: the largest first. */
  readonly moves: PlannedMove[];
  readonly unmovable: Unmovable[];
  /** What each target would take. */
  readonly targets: { id: string; name: string; instances: number; memory_mb: number; disk_mb: number }[];
}

const add = (a: Resources, b: Resources): Resources => ({
  cpu_cores: a.cpu_cores + b.cpu_cores,
  memory_mb: a.memory_mb + b.memory_mb,
  disk_mb: a.disk_mb + b.disk_mb,
});

/** Largest first (memory, then disk): what is hardest to place is placed while there is room. */
export const evacuationOrder = (a: Evacuee, b: Evacuee): number =>
  b.facts.resources.memory_mb - a.facts.resources.memory_mb ||
  resourcesMoving(b.facts).disk_mb - resourcesMoving(a.facts).disk_mb ||
  a.id.localeCompare(b.id);

/**
 * The dry run of an evacuation: each instance judged by the migration preflight in turn, largest
 * first, against the plane as it would be with the moves planned before it, so that the moves
 * spread over the targets by their free capacity (preflight prefers live-capable targets, then those
 * no other member of a soft placement group holds, then the most free memory) and two instances never count on the same room. An instance that cannot move
 * is listed with every reason (its own blockers, or each rejected target's).
 */
export function planEvacuation(input: {
  source: HypervisorFacts;
  hypervisors: readonly HypervisorFacts[];
  instances: readonly Evacuee[];
  mode: MigrationMode;
  policy: MovePolicy;
}): EvacuationPlan {
  const planned = new Map<string, Resources>();
  const counts = new Map<string, number>();
  const moves: PlannedMove[] = [];
  const unmovable: Unmovable[] = [];
  for (const evacuee of [...input.instances].sort(evacuationOrder)) {
    const hypervisors = input.hypervisors.map((h) => {
      const extra = planned.get(h.id);
      return extra ? { ...h, reserved: add(h.reserved, extra) } : h;
    });
    const report = preflight({
      instance: evacuee.facts,
      source: input.source,
      hypervisors,
      mode: input.mode,
      policy: input.policy,
    });
    const instance = { id: evacuee.id, name: evacuee.name };
    if (!report.ok || !report.target || !report.strategy) {
      unmovable.push({ instance, blockers: whyNot(report) });
      continue;
    }
    moves.push({ instance, target: report.target, strategy: report.strategy, warnings: report.warnings });
    planned.set(report.target.id, add(planned.get(report.target.id) ?? zero, resourcesMoving(evacuee.facts)));
    counts.set(report.target.id, (counts.get(report.target.id) ?? 0) + 1);
  }
  const targets = input.hypervisors
    .filter((h) => planned.has(h.id))
    .map((h) => ({
      id: h.id,
      name: h.name,
      instances: counts.get(h.id) ?? 0,
      memory_mb: planned.get(h.id)!.memory_mb,
      disk_mb: planned.get(h.id)!.disk_mb,
    }));
  return { mode: input.mode, moves, unmovable, targets };
}

/**
 * Every reason a preflight gives for not moving: the instance's own blockers, or when only no target
 * would take it, why each hypervisor of its location would not (those elsewhere never could).
 */
export function whyNot(report: PreflightReport): Finding<BlockerCode>[] {
  if (report.blockers.some((b) => b.code !== 'NO_TARGET')) return report.blockers;
  const near = report.rejected.filter((r) => !r.reasons.some((f) => f.code === 'NETWORK_NOT_REACHABLE'));
  if (near.length === 0) return report.blockers;
  return near.map((r) => ({
    code: 'NO_TARGET' as const,
    detail: `${r.name}: ${r.reasons.map((f) => f.code).join(', ')}`,
  }));
}

const zero: Resources = { cpu_cores: 0, memory_mb: 0, disk_mb: 0 };

/**
 * Blockers that pass by themselves: another operation or migration on the instance. The run tries
 * such an instance again later; any other blocker keeps it on its host until someone changes
 * something.
 */
const PASSING_BLOCKERS: readonly BlockerCode[] = ['INSTANCE_BUSY', 'INSTANCE_MIGRATING'];

/**
 * A target's refusals that pass by themselves: an agent that missed its heartbeats is back with its
 * next one (a node marked unreachable for a moment must not block a drain for good).
 */
const PASSING_TARGET_REASONS: readonly BlockerCode[] = ['TARGET_UNREACHABLE'];

/**
 * Whether what keeps the instance from moving passes by itself: each of its own blockers does (and
 * each of the requested target's, a restore's home node), or no target takes it now but a
 * hypervisor of its location would once such a reason passed. The run tries it again, as often as
 * the policy's attempts allow, then blocks it with the reasons.
 */
export function refusalPasses(report: PreflightReport): boolean {
  if (report.blockers.some((b) => b.code !== 'NO_TARGET'))
    return report.blockers.every(
      (b) => PASSING_BLOCKERS.includes(b.code) || PASSING_TARGET_REASONS.includes(b.code),
    );
  return report.rejected.some(
    (r) => r.reasons.length > 0 && r.reasons.every((f) => PASSING_TARGET_REASONS.includes(f.code)),
  );
}
