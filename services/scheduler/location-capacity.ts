import { findLocation } from '../../db/repositories/catalogue/locations.js';
import { type PlanRow, publicPlansOfferedIn } from '../../db/repositories/catalogue/plans.js';
import { placementCandidates } from '../../db/repositories/hypervisors/placement.js';
import { poolsOfLocation } from '../../db/repositories/network/ip-pools.js';
import { notFound } from '../../domain/errors.js';
import { poolFree } from '../../domain/networks/ip-pools.js';
import { placeableCount, verdictOf } from '../../domain/placement.js';
import type { ServiceDeps } from '../context.js';

export interface PlanStock {
  readonly plan: PlanRow;
  /** What the hypervisors could take by placement's rule, addresses aside. */
  readonly hypervisorRoom: number;
  /** The orders that could succeed now: the hypervisors' room, as far as the free IPv4 addresses go. */
  readonly available: number;
  readonly limitedBy: 'hypervisors' | 'addresses';
}

export interface LocationCapacity {
  readonly location: { id: string; code: string };
  /** Hypervisors placement would consider at all: online and not in maintenance. */
  readonly hypervisorsTakingOrders: number;
  readonly ipv4Free: number;
  readonly plans: PlanStock[];
  readonly measuredAt: Date;
}

/**
 * How many more instances of each public plan offered in the location could be ordered now
 * (docs/api.md "Stock per location"): the placement an order runs (`domain/placement.ts`),
 * counted instead of chosen, on the same candidates and reservations, read without locks; and
 * as each order takes an IPv4 address of the location, no more than those free. A best case at
 * this instant, not a promise: an order a moment later may find the room taken.
 */
export async function locationCapacity(
  deps: Pick<ServiceDeps, 'db'>,
  locationId: string,
): Promise<LocationCapacity> {
  const location = await findLocation(deps.db, locationId);
  if (!location) throw notFound();
  const [candidates, plans, pools] = await Promise.all([
    placementCandidates(deps.db, location.id),
    publicPlansOfferedIn(deps.db, location.id),
    poolsOfLocation(deps.db, location.id, 4),
  ]);
  const ipv4Free = pools.reduce((sum, pool) => sum + poolFree(pool), 0);
  // Passed over for its state, not its room: what placement judges before it looks at the plan.
  const nothing = { cpu_cores: 0, memory_mb: 0, disk_mb: 0 };
  const takesOrders = (verdict: string) => verdict !== 'offline' && verdict !== 'maintenance';
  return {
    location: { id: location.id, code: location.code },
    hypervisorsTakingOrders: candidates.filter((c) => takesOrders(verdictOf(c, nothing))).length,
    ipv4Free,
    plans: plans.map((plan) => {
      const need = { cpu_cores: plan.cpu_cores, memory_mb: plan.memory_mb, disk_mb: plan.disk_mb };
      const hypervisorRoom = placeableCount(candidates, need);
      return {
        plan,
        hypervisorRoom,
        available: Math.min(hypervisorRoom, ipv4Free),
        limitedBy: hypervisorRoom <= ipv4Free ? 'hypervisors' : 'addresses',
      };
    }),
    measuredAt: new Date(),
  };
}
