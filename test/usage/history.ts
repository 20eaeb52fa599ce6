import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { insertInstance } from '../../db/repositories/instances/instances.js';
import { addHours, HOUR_MS } from '../../domain/usage/hours.js';

/**
 * Writes history in the past: the changes `change` makes are dated `when` by the usage triggers
 * (cloudsvc.usage_clock, db/migrations/20261209T0100_usage_history.ts), as if made then.
 */
export async function at<T>(db: Database, when: Date, change: (trx: Database) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('cloudsvc.usage_clock', ${when.toISOString()}, true)`.execute(trx);
    return change(trx);
  });
}

/** An hour between 2001 and 2018 that no other test of the run draws (files share the database). */
export function pastHour(): Date {
  return new Date(Date.UTC(2001, 0, 1) + Math.floor(Math.random() * 150_000) * HOUR_MS);
}

export const minutesInto = (hour: Date, minutes: number) => new Date(hour.getTime() + minutes * 60_000);
export { addHours };

/** A running instance of `userId`: of `planId`, or (null) of a custom size of 2 vCPUs, 2 GB and 40 GB. */
export function newInstance(
  db: Database,
  userId: string,
  locationId: string,
  planId: string | null,
  hypervisorId: string | null = null,
) {
  return insertInstance(db, {
    user_id: userId,
    location_id: locationId,
    hypervisor_id: hypervisorId,
    plan_id: planId,
    image_id: null,
    name: 'usage-1',
    hostname: 'usage-1.example.test',
    status: 'running',
    cpu_cores: 2,
    memory_mb: 2048,
    disk_mb: 40960,
    primary_ipv4: null,
    primary_ipv6: null,
    virtualization: 'kvm',
    boot_order: JSON.stringify(['disk', 'cdrom']),
    timezone: 'UTC',
  });
}

/** The stored records of `hour` for these resources, as `resource metric plan → quantity`. */
export async function storedOf(db: Database, hour: Date, resourceIds: string[]) {
  const rows = await db
    .selectFrom('usage_records')
    .select(['resource_id', 'metric', 'plan_code', 'quantity'])
    .where('hour', '=', hour)
    .where('resource_id', 'in', resourceIds)
    .execute();
  return Object.fromEntries(rows.map((r) => [`${r.resource_id} ${r.metric} ${r.plan_code}`, r.quantity]));
}
