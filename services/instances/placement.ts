import type { Database } from '../../db/database.js';
import {
  lockCandidate,
  placementCandidates,
  reserveCapacity,
} from '../../db/repositories/hypervisors/placement.js';
import { setPrimaryAddresses } from '../../db/repositories/instances/instances.js';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import type { Resources } from '../../domain/capacity.js';
import { ApiError } from '../../domain/errors.js';
import { fits, noPlacementDetail, placementFor } from '../../domain/placement.js';
import type { GroupSpread } from '../../domain/placement-groups.js';

/**
 * Picks the hypervisor and holds it: the candidates ranked without locks, then the first one that
 * still fits once locked (a concurrent create may have taken its room in between). An imported
 * image's order is placed only on a hypervisor that holds its version ready (docs/api.md "Image
 * versions"); the others are not candidates at all, so the 409's reasons count only those.
 * In a placement group, `group` is read under the group's lock (placementGroupOf), so a second
 * create into it sees the first's member; the rule is domain/placement.ts's.
 */
export async function place(
  trx: Database,
  location: { id: string; code: string },
  need: Resources,
  /** Only these may take it (those that hold its image's version ready); null: any of the location. */
  onlyAmong: readonly string[] | null = null,
  group: GroupSpread | null = null,
): Promise<string> {
  const candidates = (await placementCandidates(trx, location.id)).filter(
    (c) => onlyAmong === null || onlyAmong.includes(c.id),
  );
  const verdict = placementFor(candidates, need, group);
  if (!verdict.ok) {
    throw new ApiError('SVC-PLACEMENT-409', { detail: noPlacementDetail(location.code, verdict.reasons) });
  }
  for (const hypervisorId of verdict.hypervisorIds) {
    const locked = await lockCandidate(trx, hypervisorId);
    if (locked && locked.status === 'online' && !locked.maintenance && fits(locked, need))
      return hypervisorId;
  }
  throw new ApiError('SVC-PLACEMENT-409', {
    detail: noPlacementDetail(location.code, {
      offline: 0,
      maintenance: 0,
      capacity: verdict.hypervisorIds.length,
      group: 0,
    }),
  });
}

/**
 * What a new instance holds on its hypervisor and in its location, in the creating transaction:
 * its reservation, a public IPv4 address (none left is 409 SVC-IP-409) and an IPv6 one where the
 * location has a pool.
 */
export async function holdResources(
  trx: Database,
  instance: { id: string; userId: string; hypervisorId: string; location: { id: string; code: string } },
  need: Resources,
): Promise<{ ipv4: string; ipv6: string | null }> {
  await reserveCapacity(trx, {
    hypervisorId: instance.hypervisorId,
    instanceId: instance.id,
    purpose: 'instance',
    resources: need,
  });
  const address = async (family: 4 | 6) =>
    (
      await allocateAddress(trx, {
        locationId: instance.location.id,
        family,
        instanceId: instance.id,
        userId: instance.userId,
        role: 'primary',
      })
    )?.address;
  const ipv4 = await address(4);
  if (!ipv4)
    throw new ApiError('SVC-IP-409', {
      detail: `Location ${instance.location.code} has no free IPv4 address left.`,
    });
  const ipv6 = (await address(6)) ?? null;
  await setPrimaryAddresses(trx, instance.id, { ipv4, ipv6 });
  return { ipv4, ipv6 };
}
