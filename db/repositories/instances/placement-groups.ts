import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { PlacementPolicy } from '../../../domain/placement-groups.js';
import type { Database } from '../../database.js';

// Customers' placement groups: created, listed, shown and deleted by their owner; their members
// are instances naming them (instances.placement_group_id), live ones only.

function placementGroups(db: Database) {
  return db
    .selectFrom('placement_groups as g')
    .innerJoin('locations as l', 'l.id', 'g.location_id')
    .select([
      'g.id',
      'g.user_id',
      'g.location_id',
      'l.code as location_code',
      'g.name',
      'g.policy',
      sql<number>`(select count(*)::int from instances i
                    where i.placement_group_id = g.id and i.deleted_at is null)`.as('members'),
      'g.created_at',
      'g.updated_at',
    ]);
}

export type PlacementGroupRow = Awaited<ReturnType<typeof findPlacementGroup>> & {};

export async function findPlacementGroup(db: Database, id: string) {
  return placementGroups(db).where('g.id', '=', id).executeTakeFirst();
}

/** One of the user's groups: another's is indistinguishable from none. */
export async function findPlacementGroupOfUser(db: Database, userId: string, id: string) {
  return placementGroups(db).where('g.id', '=', id).where('g.user_id', '=', userId).executeTakeFirst();
}

/** A page of the user's groups, oldest first. */
export async function listPlacementGroups(db: Database, userId: string, page: PageRequest) {
  const rows = await placementGroups(db)
    .where('g.user_id', '=', userId)
    .orderBy('g.created_at')
    .orderBy('g.id')
    .limit(page.perPage)
    .offset(offsetOf(page))
    .execute();
  const { total } = await db
    .selectFrom('placement_groups')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { rows, total };
}

export async function insertPlacementGroup(
  db: Database,
  group: { userId: string; locationId: string; name: string; policy: PlacementPolicy },
): Promise<string> {
  const { id } = await db
    .insertInto('placement_groups')
    .values({ user_id: group.userId, location_id: group.locationId, name: group.name, policy: group.policy })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Locks the group's row for a placement into it: two creates into one group take turns, and the
 * second reads the first's member (FOR NO KEY UPDATE leaves alone the key-share lock the member's
 * own row takes on it).
 */
export async function lockPlacementGroupForPlacement(trx: Database, id: string) {
  if (!trx.isTransaction) throw new Error('lockPlacementGroupForPlacement runs inside a transaction');
  const { rows } = await sql<{ policy: PlacementPolicy }>`
    select policy from placement_groups where id = ${id} for no key update`.execute(trx);
  return rows[0];
}

/** Locks the group's row to delete it: no member joins while its members are counted. */
export async function lockPlacementGroupForDelete(trx: Database, id: string): Promise<void> {
  await trx.selectFrom('placement_groups').select('id').where('id', '=', id).forUpdate().execute();
}

/**
 * The hypervisors the group's live members hold: the one each is on, and any an active
 * reservation of one holds (a migration's or a resize move's target while it runs); those of
 * `exceptInstanceId` left out (the member that is moving).
 */
export async function memberHostsOf(
  db: Database,
  groupId: string,
  exceptInstanceId: string | null = null,
): Promise<string[]> {
  const others = sql`i.placement_group_id = ${groupId} and i.deleted_at is null
    and i.id is distinct from ${exceptInstanceId}::uuid`;
  const { rows } = await sql<{ hypervisor_id: string }>`
    select i.hypervisor_id from instances i where ${others} and i.hypervisor_id is not null
    union
    select r.hypervisor_id from reservations r join instances i on i.id = r.instance_id
     where ${others} and r.released_at is null and (r.expires_at is null or r.expires_at > now())`.execute(
    db,
  );
  return rows.map((r) => r.hypervisor_id);
}

/** The group the instance is in, with the hosts its other members hold (read without a lock: advice); none: null. */
export async function groupSpreadOfInstance(db: Database, instanceId: string) {
  const group = await db
    .selectFrom('instances as i')
    .innerJoin('placement_groups as g', 'g.id', 'i.placement_group_id')
    .select(['g.id', 'g.policy'])
    .where('i.id', '=', instanceId)
    .executeTakeFirst();
  if (!group) return null;
  return { policy: group.policy, memberHosts: await memberHostsOf(db, group.id, instanceId) };
}

/** The group the instance is in, locked for a placement into it (as a create's); none: undefined. */
export async function lockGroupOfInstance(trx: Database, instanceId: string) {
  if (!trx.isTransaction) throw new Error('lockGroupOfInstance runs inside a transaction');
  const { rows } = await sql<{ id: string; policy: PlacementPolicy }>`
    select g.id, g.policy from placement_groups g
      join instances i on i.placement_group_id = g.id
     where i.id = ${instanceId}
       for no key update of g`.execute(trx);
  return rows[0];
}

export async function deletePlacementGroupRow(trx: Database, id: string): Promise<void> {
  await trx.deleteFrom('placement_groups').where('id', '=', id).execute();
}
