import { isDeadlock, isForeignKeyViolation } from '../../db/errors.js';
import {
  deleteIpPoolUnlessUsed,
  findIpPool,
  type IpPoolRow,
  insertIpPool,
  overlappingPools,
  renameIpPool,
} from '../../db/repositories/network/ip-pools.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { checkIpPoolRange, type IpPoolRange } from '../../domain/networks/ip-pools.js';
import type { ServiceDeps } from '../context.js';
import { inUse } from '../in-use.js';

// A location's address pools, which instances take their addresses from (lowest free first).

const overlapping = (what: string) =>
  new ApiError('SVC-CONFLICT-409', {
    detail: `The range overlaps ${what}: addresses are unique in the whole plane.`,
  });

export async function createIpPool(
  deps: Pick<ServiceDeps, 'db'>,
  fields: { location_uuid: string; name: string; cidr: string; gateway: string | null },
): Promise<IpPoolRow> {
  const range = checkIpPoolRange(fields.cidr, fields.gateway);
  if ('field' in range) throw new ApiError('SVC-REQ-400', { fields: [range] });
  try {
    return await insertUnlessOverlapping(deps, fields.location_uuid, fields.name, range);
  } catch (error) {
    // Created at once with an overlapping pool, and failed as a deadlock (db/errors.ts): asked
    // again, it meets that pool (a 409 naming it), or none if that one failed in turn.
    if (!isDeadlock(error)) throw error;
    return insertUnlessOverlapping(deps, fields.location_uuid, fields.name, range);
  }
}

async function insertUnlessOverlapping(
  deps: Pick<ServiceDeps, 'db'>,
  locationId: string,
  name: string,
  range: IpPoolRange,
): Promise<IpPoolRow> {
  const overlaps = await overlappingPools(deps.db, range.cidr);
  if (overlaps.length > 0) throw overlapping(`the pool ${overlaps.map((p) => p.cidr).join(', ')}`);
  try {
    const { id } = await insertIpPool(deps.db, { locationId, name, ...range });
    return (await findIpPool(deps.db, id))!;
  } catch (error) {
    // A pool of an overlapping range created meanwhile: the exclusion constraint refused this one.
    if ((error as { code?: unknown }).code === '23P01') throw overlapping('a pool created meanwhile');
    if (isForeignKeyViolation(error, 'ip_pools_location_id_fkey'))
      throw new ApiError('SVC-REQ-400', {
        fields: [{ field: 'location_uuid', detail: 'No such location.' }],
      });
    throw error;
  }
}

export async function renamePool(
  deps: Pick<ServiceDeps, 'db'>,
  poolId: string,
  name: string,
): Promise<IpPoolRow> {
  if (!(await renameIpPool(deps.db, poolId, name))) throw notFound();
  return (await findIpPool(deps.db, poolId))!;
}

/** Refused while the pool holds an address: its instances keep theirs, and nothing is half-deleted. */
export async function deletePool(deps: Pick<ServiceDeps, 'db'>, poolId: string): Promise<void> {
  const outcome = await deleteIpPoolUnlessUsed(deps.db, poolId);
  if (outcome === 'missing') throw notFound();
  if (outcome !== 'deleted') throw inUse('pool', [[outcome.addresses, 'assigned address']]);
}
