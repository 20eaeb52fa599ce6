import { fitsIn, type Resources } from './capacity.js';
import { type GroupSpread, groupForbids, groupHolds } from './placement-groups.js';

/** A hypervisor as placement sees it: its state, its size, and what active reservations hold. */
export interface PlacementCandidate {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly maintenance: boolean;
  readonly total: Resources;
  readonly reserved: Resources;
}

/** Why hypervisors were passed over, counted; `group`: those a `spread` group forbids. */
export interface PlacementReasons {
  offline: number;
  maintenance: number;
  capacity: number;
  group: number;
}

export type PlacementVerdict =
  | { ok: true; hypervisorIds: string[] }
  | { ok: false; reasons: PlacementReasons };

/** Why a hypervisor takes an instance or not: the first rule it fails, in the order placement checks them. */
export type CandidateVerdict = 'fits' | 'offline' | 'maintenance' | 'capacity';

export const freeOf = (c: PlacementCandidate): Resources => ({
  cpu_cores: c.total.cpu_cores - c.reserved.cpu_cores,
  memory_mb: c.total.memory_mb - c.reserved.memory_mb,
  disk_mb: c.total.disk_mb - c.reserved.disk_mb,
});

export const fits = (c: PlacementCandidate, need: Resources): boolean => fitsIn(freeOf(c), need);

export function verdictOf(candidate: PlacementCandidate, need: Resources): CandidateVerdict {
  if (candidate.status !== 'online') return 'offline';
  if (candidate.maintenance) return 'maintenance';
  return fits(candidate, need) ? 'fits' : 'capacity';
}

/**
 * How many instances of `need` the candidate could take now, one after another, by the rule
 * placement checks each against (`verdictOf`): none unless it takes the first, then as many as its
 * free room holds of every resource. Each placed instance's reservation lowers that room by `need`,
 * so this is the count of orders placement would put on it before it says `capacity`.
 */
export function roomFor(candidate: PlacementCandidate, need: Resources): number {
  if (verdictOf(candidate, need) !== 'fits') return 0;
  const free = freeOf(candidate);
  const counts = (['cpu_cores', 'memory_mb', 'disk_mb'] as const)
    .filter((k) => need[k] > 0)
    .map((k) => Math.floor(free[k] / need[k]));
  // A need of nothing at all fits without end; no plan is that (each resource is at least 1).
  return counts.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...counts);
}

/** How many orders of `need` placement could place now among `candidates`: each host's room, summed. */
export const placeableCount = (candidates: readonly PlacementCandidate[], need: Resources): number =>
  candidates.reduce((sum, candidate) => sum + roomFor(candidate, need), 0);

/**
 * Where an instance may go: hypervisors of its location that are online, not in maintenance, and
 * have the plan's resources free after their reservations; the ones with the most memory left
 * first (memory runs out first on a VM host). When none fits, why each was passed over, counted.
 *
 * In a placement group (docs/api.md "Placement groups") a host holding another member is
 * forbidden under `spread` (counted as `group`, whatever else it lacks: the group is the reason the
 * customer can act on) and ranked after every host without one under `spread_soft`.
 */
export function placementFor(
  candidates: readonly PlacementCandidate[],
  need: Resources,
  group: GroupSpread | null = null,
): PlacementVerdict {
  const reasons: PlacementReasons = { offline: 0, maintenance: 0, capacity: 0, group: 0 };
  const fitting: PlacementCandidate[] = [];
  const holdsMember = (c: PlacementCandidate) => groupHolds(group, c.id);
  for (const candidate of candidates) {
    if (groupForbids(group, candidate.id)) {
      reasons.group++;
      continue;
    }
    const verdict = verdictOf(candidate, need);
    if (verdict === 'fits') fitting.push(candidate);
    else reasons[verdict]++;
  }
  if (fitting.length === 0) return { ok: false, reasons };
  fitting.sort(
    (a, b) =>
      Number(holdsMember(a)) - Number(holdsMember(b)) ||
      freeOf(b).memory_mb - freeOf(a).memory_mb ||
      a.id.localeCompare(b.id),
  );
  return { ok: true, hypervisorIds: fitting.map((c) => c.id) };
}

/** What a hypervisor lacks for `need`, one sentence per resource short. */
export function shortfallOf(candidate: PlacementCandidate, need: Resources): string[] {
  const free = freeOf(candidate);
  const words = { cpu_cores: 'CPU cores', memory_mb: 'MB of memory', disk_mb: 'MB of disk' } as const;
  return (Object.keys(words) as (keyof Resources)[])
    .filter((k) => free[k] < need[k])
    .map((k) => `needs ${need[k]} ${words[k]}, ${Math.max(0, free[k])} free`);
}

/** The customer-safe sentence for a placement that found nothing (no hypervisor names). */
export function noPlacementDetail(location: string, reasons: PlacementReasons): string {
  const parts = [
    reasons.group > 0 ? `${reasons.group} holding another instance of its spread placement group` : undefined,
    reasons.capacity > 0 ? `${reasons.capacity} without the free capacity` : undefined,
    reasons.maintenance > 0 ? `${reasons.maintenance} in maintenance` : undefined,
    reasons.offline > 0 ? `${reasons.offline} not reachable` : undefined,
  ].filter(Boolean);
  return parts.length === 0
    ? `Location ${location} has no hypervisor.`
    : `No hypervisor in location ${location} can take this plan now (${parts.join(', ')}).`;
}
