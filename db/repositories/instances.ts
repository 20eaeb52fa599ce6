import { type Kysely, sql } from 'kysely';
import type { PageRequest } from '../../domain/pagination.js';
import { offsetOf } from '../../domain/pagination.js';
import type { Database } from '../database.js';
import { precompiled } from '../precompiled.js';
import type { DB, NewInstance } from '../schema.js';

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

export async function listInstancesOfUser(db: Database, userId: string, page: PageRequest) {
  const base = db.selectFrom('instances').where('user_id', '=', userId).where('deleted_at', 'is', null);
  const [rows, total] = await Promise.all([
    base
      .select(INSTANCE_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

export async function insertInstance(db: Database, instance: NewInstance) {
  return db.insertInto('instances').values(instance).returning(INSTANCE_COLUMNS).executeTakeFirstOrThrow();
}
