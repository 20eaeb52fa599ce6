import { findLocation } from '../../db/repositories/catalogue/locations.js';
import { findPlan } from '../../db/repositories/catalogue/plans.js';
import { placementCandidates } from '../../db/repositories/hypervisors/placement.js';
import type { Resources } from '../../domain/capacity.js';
import { ApiError } from '../../domain/errors.js';
import {
  type CandidateVerdict,
  noPlacementDetail,
  type PlacementCandidate,
  placementFor,
  shortfallOf,
  verdictOf,
} from '../../domain/placement.js';
import type { ServiceDeps } from '../context.js';

export interface HypervisorVerdict {
  readonly candidate: PlacementCandidate;
  readonly verdict: CandidateVerdict;
  readonly reasons: string[];
  /** Its place in the order create tries them (1 first); null when it does not fit. */
  readonly rank: number | null;
}

export interface DryRun {
  readonly need: Resources;
  readonly chosen: string | null;
  /** Why nothing fits, as a customer's order would be told (null when one does). */
  readonly detail: string | null;
  readonly hypervisors: HypervisorVerdict[];
}

function reasonsFor(candidate: PlacementCandidate, verdict: CandidateVerdict, need: Resources): string[] {
  if (verdict === 'offline') return [`status ${candidate.status}`];
  if (verdict === 'maintenance') return ['in maintenance'];
  if (verdict === 'capacity') return shortfallOf(candidate, need);
  return [];
}

/**
 * Where an order of `plan` in `location` would land now, and why every other hypervisor of the
 * location would not take it: the placement code create runs, reading without locks, changing nothing.
 * Create locks its choice and checks it again, so a concurrent order may still take the room.
 */
export async function schedulerDryRun(
  deps: Pick<ServiceDeps, 'db'>,
  request: { planId: string; locationId: string },
): Promise<DryRun> {
  const [plan, location] = await Promise.all([
    findPlan(deps.db, request.planId),
    findLocation(deps.db, request.locationId),
  ]);
  const missing = [
    ...(plan ? [] : [{ field: 'plan_uuid', detail: 'No such plan.' }]),
    ...(location ? [] : [{ field: 'location_uuid', detail: 'No such location.' }]),
  ];
  if (!plan || !location) throw new ApiError('SVC-REQ-400', { fields: missing });
  const need = { cpu_cores: plan.cpu_cores, memory_mb: plan.memory_mb, disk_mb: plan.disk_mb };
  const candidates = await placementCandidates(deps.db, location.id);
  const placement = placementFor(candidates, need);
  const order = placement.ok ? placement.hypervisorIds : [];
  const rankOf = new Map(order.map((id, i) => [id, i + 1]));
  const hypervisors = candidates
    .map((candidate) => {
      const verdict = verdictOf(candidate, need);
      const reasons = reasonsFor(candidate, verdict, need);
      return { candidate, verdict, reasons, rank: rankOf.get(candidate.id) ?? null };
    })
    .sort(
      (a, b) =>
        (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER) ||
        a.candidate.name.localeCompare(b.candidate.name),
    );
  return {
    need,
    chosen: order[0] ?? null,
    detail: placement.ok ? null : noPlacementDetail(location.code, placement.reasons),
    hypervisors,
  };
}
