import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { findLocationByCode } from '../../db/repositories/catalogue/catalog.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import {
  deletePlacementGroupRow,
  findPlacementGroup,
  findPlacementGroupOfUser,
  insertPlacementGroup,
  lockPlacementGroupForDelete,
  lockPlacementGroupForPlacement,
  memberHostsOf,
  type PlacementGroupRow,
} from '../../db/repositories/instances/placement-groups.js';
import { type Asker, actorName, type Customer } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import {
  type GroupSpread,
  mayDeletePlacementGroup,
  type PlacementPolicy,
} from '../../domain/placement-groups.js';
import type { ServiceDeps } from '../context.js';

// A customer's placement groups themselves; placement into one is services/instances/placement.ts.

export interface NewPlacementGroupRequest {
  readonly name: string;
  readonly policy: PlacementPolicy;
  readonly location: string;
  readonly correlationId: string | null;
}

/** Creates a placement group of the customer's in a location; names are unique per account. */
export async function createPlacementGroup(
  deps: Pick<ServiceDeps, 'db'>,
  actor: Customer,
  request: NewPlacementGroupRequest,
): Promise<PlacementGroupRow> {
  const location = await findLocationByCode(deps.db, request.location);
  if (!location)
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'location', detail: 'No such location.' }] });
  try {
    const id = await deps.db.transaction().execute(async (trx) => {
      const group = {
        userId: actor.userId,
        locationId: location.id,
        name: request.name,
        policy: request.policy,
      };
      const created = await insertPlacementGroup(trx, group);
      await record(trx, actor, 'placement_group.created', { id: created, ...group }, request.correlationId);
      return created;
    });
    return (await findPlacementGroup(deps.db, id))!;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('SVC-CONFLICT-409', {
        detail: 'You have a placement group of this name.',
        cause: error,
      });
    throw error;
  }
}

/** Deletes a customer's own group; refused (409 SVC-INUSE-409) while a live instance is in it. */
export async function deletePlacementGroup(
  deps: Pick<ServiceDeps, 'db'>,
  actor: Customer,
  request: { readonly groupId: string; readonly correlationId: string | null },
): Promise<void> {
  const group = await findPlacementGroupOfUser(deps.db, actor.userId, request.groupId);
  if (!group) throw notFound();
  await deps.db.transaction().execute(async (trx) => {
    await lockPlacementGroupForDelete(trx, group.id);
    const current = await findPlacementGroup(trx, group.id);
    if (!current) throw notFound();
    const verdict = mayDeletePlacementGroup(current.members);
    if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
    await deletePlacementGroupRow(trx, group.id);
    const owned = { id: group.id, userId: group.user_id, name: group.name, policy: group.policy };
    await record(trx, actor, 'placement_group.deleted', owned, request.correlationId);
  });
}

/** The owner's placement group the order names, of the order's location; else 400 naming `placement_group`. */
export async function placementGroupOf(
  db: Database,
  request: { readonly ownerId: string; readonly placementGroupId?: string | undefined },
  location: { id: string; code: string },
): Promise<string | null> {
  if (request.placementGroupId === undefined) return null;
  const group = await findPlacementGroupOfUser(db, request.ownerId, request.placementGroupId);
  if (!group) throw noSuchGroup();
  if (group.location_id !== location.id)
    throw new ApiError('SVC-REQ-400', {
      fields: [
        {
          field: 'placement_group',
          detail: `The placement group is in location ${group.location_code}, not ${location.code}.`,
        },
      ],
    });
  return group.id;
}

const noSuchGroup = () =>
  new ApiError('SVC-REQ-400', { fields: [{ field: 'placement_group', detail: 'No such placement group.' }] });

/**
 * The group's policy and its members' hosts, read under a lock of its row taken after the owner's
 * and before the hypervisor's (placement's order): creates into one group take turns, and each
 * sees the members committed before it. A group deleted since it was named is 400, as unnamed.
 */
export async function spreadUnderLock(trx: Database, groupId: string): Promise<GroupSpread> {
  const locked = await lockPlacementGroupForPlacement(trx, groupId);
  if (!locked) throw noSuchGroup();
  return { policy: locked.policy, memberHosts: await memberHostsOf(trx, groupId) };
}

function record(
  db: Database,
  actor: Asker,
  event: string,
  group: { id: string; userId: string; name: string; policy: PlacementPolicy },
  correlationId: string | null,
) {
  return recordActivity(db, {
    userId: group.userId,
    actor: actorName(actor),
    event,
    detail: { placement_group_id: group.id, name: group.name, policy: group.policy },
    correlationId,
  });
}
