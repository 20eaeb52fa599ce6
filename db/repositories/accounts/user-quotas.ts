import { sql } from 'kysely';
import { QUOTA_RESOURCES, type QuotaLimits, type QuotaUsage, UNLIMITED } from '../../../domain/quotas.js';
import type { Database } from '../../database.js';

// A user's quotas (no row: unlimited) and what they hold, counted where the quotas are checked.

type LimitColumns = { [R in keyof QuotaLimits]: number | null };

const limitsOf = (row: LimitColumns): QuotaLimits => ({
  instances: row.instances,
  cpu_cores: row.cpu_cores,
  memory_mb: row.memory_mb,
  disk_mb: row.disk_mb,
  volumes: row.volumes,
  ips: row.ips,
});

/** The user's limits and when they were last set (null: never); undefined when there is no such user. */
export async function findUserQuotas(db: Database, userId: string) {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('user_quotas as q', 'q.user_id', 'u.id')
    .select(['q.updated_at', 'q.instances', 'q.cpu_cores', 'q.memory_mb', 'q.disk_mb', 'q.volumes', 'q.ips'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { limits: row.updated_at ? limitsOf(row) : UNLIMITED, updatedAt: row.updated_at };
}

/**
 * The user's row held for the rest of the caller's transaction, and their limits read under it:
 * two orders of one user take turns here, so the second counts what the first wrote. FOR NO KEY
 * UPDATE, as a hypervisor's room is held (placement.ts): the rows an order inserts name the user
 * and take key-share locks on it, which this leaves alone. Undefined when there is no such user.
 */
export async function lockUserQuotas(trx: Database, userId: string): Promise<QuotaLimits | undefined> {
  const { rows } = await sql<LimitColumns & { id: string; set: boolean }>`
    select u.id, q.user_id is not null as set, ${sql.join(QUOTA_RESOURCES.map((r) => sql`q.${sql.ref(r)}`))}
      from users u left join user_quotas q on q.user_id = u.id
     where u.id = ${userId}
       for no key update of u`.execute(trx);
  const row = rows[0];
  if (!row) return undefined;
  return row.set ? limitsOf(row) : UNLIMITED;
}

/** Sets every limit of the user at once (null: unlimited). */
export async function replaceUserQuotas(db: Database, userId: string, limits: QuotaLimits): Promise<void> {
  await db
    .insertInto('user_quotas')
    .values({ user_id: userId, ...limits })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...limits, updated_at: sql`now()` }))
    .execute();
}

/**
 * What the user holds: instances not deleted with their own size, volumes (whatever their state
 * until they are gone) and addresses of either family, floating ones included. A disk or volume
 * being grown, and an instance being resized, counts at the size its reservation holds for it, so
 * two changes under way at once cannot both count the old size.
 */
export async function userUsage(db: Database, userId: string): Promise<QuotaUsage> {
  const held = (
    resource: 'cpu_cores' | 'memory_mb' | 'disk_mb',
    column: 'instance_id' | 'volume_id',
    purpose: 'instance' | 'volume',
    id: ReturnType<typeof sql>,
  ) =>
    sql`coalesce((select max(r.${sql.ref(resource)}) from reservations r
                   where r.${sql.ref(column)} = ${id} and r.purpose = ${purpose} and r.released_at is null), 0)`;
  const own = (resource: 'cpu_cores' | 'memory_mb' | 'disk_mb') =>
    sql`greatest(${sql.ref(`i.${resource}`)}, ${held(resource, 'instance_id', 'instance', sql`i.id`)})`;
  const { rows } = await sql<QuotaUsage>`
    select i.instances, i.cpu_cores, i.memory_mb, (i.disk_mb + v.disk_mb)::float8 as disk_mb,
           v.volumes, a.ips
      from (select count(*)::int as instances, coalesce(sum(${own('cpu_cores')}), 0)::int as cpu_cores,
                   coalesce(sum(${own('memory_mb')}), 0)::float8 as memory_mb,
                   coalesce(sum(${own('disk_mb')}), 0)::bigint as disk_mb
              from instances i where user_id = ${userId} and status <> 'deleted') i,
           (select count(*)::int as volumes,
                   coalesce(sum(greatest(size_mb, ${held('disk_mb', 'volume_id', 'volume', sql`v.id`)})), 0)::bigint as disk_mb
              from volumes v where user_id = ${userId}) v,
           (select count(*)::int as ips from ip_addresses where user_id = ${userId}) a`.execute(db);
  return rows[0]!;
}
