import { type Kysely, sql } from 'kysely';
import type { ListRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';
import { precompiled } from '../../precompiled.js';
import type { DB, NewInstance } from '../../schema.js';

const INSTANCE_COLUMNS = [
  'id',
  'user_id',
  'hypervisor_id',
  'name',
  'hostname',
  'status',
  'cpu_cores',
  'memory_mb',
  'disk_mb',
  'primary_ipv4',
  'primary_ipv6',
  'virtualization',
  'boot_order',
  'timezone',
  'guest_drift',
  'guest_drift_since',
  'user_data_kind',
  'user_data_bytes',
  'user_data_sha256',
  'external_id',
  'created_at',
  'updated_at',
] as const;

export type Instance = Awaited<ReturnType<typeof findInstanceOfUser>> & {};

// The show-instance read runs on every GET of an instance: compiled once.
const instanceOfUser = precompiled((db: Kysely<DB>, userId: string, instanceId: string) =>
  db
    .selectFrom('instances')
    .select(INSTANCE_COLUMNS)
    .where('id', '=', instanceId)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null),
);

/** One instance of one user: a foreign or deleted instance is indistinguishable from none. */
export async function findInstanceOfUser(db: Database, userId: string, instanceId: string) {
  const [row] = await instanceOfUser(db, userId, instanceId);
  return row;
}

export async function findInstance(db: Database, instanceId: string) {
  return db
    .selectFrom('instances')
    .select(INSTANCE_COLUMNS)
    .where('id', '=', instanceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

const OWN_ORDER: KeysetOrder = { at: 'created_at', id: 'id', idType: 'uuid' };

/** A user's instances, newest first, by keyset (db/keyset.ts). */
export async function listInstancesOfUser(db: Database, userId: string, request: ListRequest) {
  const base = db.selectFrom('instances').where('user_id', '=', userId).where('deleted_at', 'is', null);
  return readKeysetPage(db, OWN_ORDER, request, base.select(INSTANCE_COLUMNS), base);
}

/**
 * Sets or clears (null) the billing system's id of a live instance; undefined when there is no such
 * instance. The unique index `instances_external_id` refuses one another live instance holds.
 */
export async function setInstanceExternalId(
  db: Database,
  instanceId: string,
  externalId: string | null,
): Promise<{ id: string } | undefined> {
  return db
    .updateTable('instances')
    .set({
      external_id: externalId,
      // Set to what it is already, the instance is unchanged: its updated_at stays.
      updated_at: sql`case when external_id is distinct from ${externalId} then now() else updated_at end`,
    })
    .where('id', '=', instanceId)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

export async function insertInstance(db: Database, instance: NewInstance) {
  return db.insertInto('instances').values(instance).returning(INSTANCE_COLUMNS).executeTakeFirstOrThrow();
}

/** A new root password (sealed), shown to the customer once within `windowMs` from now. */
export async function setInstancePassword(
  db: Database,
  instanceId: string,
  sealed: string,
  windowMs: number,
): Promise<void> {
  await db
    .updateTable('instances')
    .set({
      password_sealed: sealed,
      password_visible_until: sql`now() + ${`${windowMs} milliseconds`}::interval`,
      password_shown_at: null,
      updated_at: sql`now()`,
    })
    .where('id', '=', instanceId)
    .execute();
}

/**
 * The show-once read: returns the sealed password and ends its window in one compare-and-set, so
 * two reads at once cannot both see it. Undefined when it was shown already or the window passed.
 */
export async function takeInstancePassword(db: Database, instanceId: string): Promise<string | undefined> {
  const row = await db
    .updateTable('instances')
    .set({ password_shown_at: sql`now()` })
    .where('id', '=', instanceId)
    .where('password_shown_at', 'is', null)
    .where('password_visible_until', '>', sql<Date>`now()`)
    .where('password_sealed', 'is not', null)
    .returning('password_sealed')
    .executeTakeFirst();
  return row?.password_sealed ?? undefined;
}

/** When the password can be seen: until `visible_until`, unless it was shown already. */
export async function passwordWindow(db: Database, instanceId: string) {
  return db
    .selectFrom('instances')
    .select(['password_visible_until', 'password_shown_at'])
    .where('id', '=', instanceId)
    .executeTakeFirst();
}

export async function setInstanceSshKeys(
  db: Database,
  instanceId: string,
  keys: readonly { name: string; fingerprint: string; public_key: string }[],
): Promise<void> {
  await db.deleteFrom('instance_ssh_keys').where('instance_id', '=', instanceId).execute();
  if (keys.length === 0) return;
  await db
    .insertInto('instance_ssh_keys')
    .values(
      keys.map((k) => ({
        instance_id: instanceId,
        name: k.name,
        fingerprint: k.fingerprint,
        public_key: k.public_key,
      })),
    )
    .execute();
}

export async function listInstanceSshKeys(db: Database, instanceId: string) {
  return db
    .selectFrom('instance_ssh_keys')
    .select(['name', 'fingerprint', 'public_key'])
    .where('instance_id', '=', instanceId)
    .orderBy('name')
    .execute();
}

/**
 * The image the instance's disk was last written from, and its version: the one the running
 * rebuild recorded in its input (none for an image without versions).
 */
export async function setInstanceImage(db: Database, instanceId: string, imageId: string): Promise<void> {
  await db
    .updateTable('instances')
    .set({
      image_id: imageId,
      image_version_id: sql<
        string | null
      >`(select (workflow_input->>'imageVersionId')::uuid from instance_operations
        where instance_id = ${instanceId} and kind = 'rebuild' and state = 'running' limit 1)`,
      updated_at: sql`now()`,
    })
    .where('id', '=', instanceId)
    .execute();
}

/** The root disk's size as its hypervisor reported it after a grow. */
export async function setInstanceDiskSize(db: Database, instanceId: string, diskMb: number): Promise<void> {
  await db
    .updateTable('instances')
    .set({ disk_mb: diskMb, updated_at: sql`now()` })
    .where('id', '=', instanceId)
    .execute();
}

/**
 * A deleted instance keeps its row (its history) but leaves every list and lookup; its secrets (the
 * root password, the customer's user-data) go.
 */
export async function markInstanceDeleted(db: Database, instanceId: string): Promise<void> {
  await db
    .updateTable('instances')
    .set({ deleted_at: sql`coalesce(deleted_at, now())`, password_sealed: null, updated_at: sql`now()` })
    .where('id', '=', instanceId)
    .execute();
  await db.deleteFrom('instance_user_data').where('instance_id', '=', instanceId).execute();
}

/** The instance's primary addresses, as allocated at create. */
export async function setPrimaryAddresses(
  db: Database,
  instanceId: string,
  addresses: { ipv4: string | null; ipv6: string | null },
): Promise<void> {
  await db
    .updateTable('instances')
    .set({ primary_ipv4: addresses.ipv4, primary_ipv6: addresses.ipv6 })
    .where('id', '=', instanceId)
    .execute();
}

/**
 * Locks the instance's row until the transaction ends: requests that count or name things of one
 * instance (its schedules) take turns.
 */
export async function lockInstance(trx: Database, instanceId: string): Promise<void> {
  await trx.selectFrom('instances').select('id').where('id', '=', instanceId).forUpdate().execute();
}

/** The location an instance lives in (its addresses come from that location's pools). */
export async function findInstanceLocationId(db: Database, instanceId: string): Promise<string> {
  const row = await db
    .selectFrom('instances')
    .select('location_id')
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();
  return row.location_id;
}

/**
 * Live instances with exactly this name, of every user, oldest first: a name is its owner's label,
 * unique nowhere (not even per user), so an operator's name may match several. At most `limit`.
 */
export async function findInstancesNamed(db: Database, name: string, limit: number) {
  return db
    .selectFrom('instances')
    .innerJoin('users', 'users.id', 'instances.user_id')
    .leftJoin('hypervisors', 'hypervisors.id', 'instances.hypervisor_id')
    .select([
      'instances.id',
      'instances.status',
      'instances.created_at',
      'users.email as user_email',
      'hypervisors.name as hypervisor_name',
    ])
    .where('instances.name', '=', name)
    .where('instances.deleted_at', 'is', null)
    .orderBy('instances.created_at')
    .orderBy('instances.id')
    .limit(limit)
    .execute();
}
