import { sql } from 'kysely';
import type { UsageState } from '../../../domain/usage/build.js';
import { addHours } from '../../../domain/usage/hours.js';
import type { Database } from '../../database.js';

// The usage history (docs/usage.md "History"): written by the triggers of the tables it follows
// (db/migrations/20261209T0100_usage_history.ts), never by a function here, so it holds every
// change whatever wrote it. This module reads it.

/**
 * What `hour` is rebuilt from: per resource, its last change at or before the hour's start (when
 * it is not gone) and every change within the hour, ordered by resource, time and id, each with
 * the code its plan has now.
 */
export async function statesForHour(db: Database, hour: Date): Promise<UsageState[]> {
  const end = addHours(hour, 1);
  const { rows } = await sql<{
    resource_type: string;
    resource_id: string;
    user_id: string | null;
    instance_id: string | null;
    plan_id: string | null;
    plan_code: string | null;
    status: string | null;
    suspended: boolean;
    cpu_cores: number | null;
    memory_mb: number | null;
    disk_mb: number | null;
    changed_at: Date;
  }>`
    with opening as (
      select distinct on (resource_id) * from usage_states
       where changed_at <= ${hour}
       order by resource_id, changed_at desc, id desc
    ),
    states as (
      select * from opening where status is not null
      union all
      select * from usage_states where changed_at > ${hour} and changed_at < ${end}
    )
    select s.resource_type, s.resource_id, s.user_id, s.instance_id, s.plan_id, p.code as plan_code,
           s.status, s.suspended, s.cpu_cores, s.memory_mb, s.disk_mb, s.changed_at
      from states s
      left join plans p on p.id = s.plan_id
     order by s.resource_id, s.changed_at, s.id`.execute(db);
  return rows.map((r) => ({
    resourceType: r.resource_type,
    resourceId: r.resource_id,
    userId: r.user_id,
    instanceId: r.instance_id,
    planId: r.plan_id,
    planCode: r.plan_code,
    status: r.status,
    suspended: r.suspended,
    cpuCores: r.cpu_cores,
    memoryMb: r.memory_mb,
    diskMb: r.disk_mb,
    changedAt: r.changed_at,
  }));
}

/** When the history begins: the first hour there is anything to close. */
export async function firstStateAt(db: Database): Promise<Date | null> {
  const row = await db
    .selectFrom('usage_states')
    .select((eb) => eb.fn.min('changed_at').as('first'))
    .executeTakeFirst();
  return (row?.first as Date | null | undefined) ?? null;
}

/**
 * Waits for every transaction that is writing history (states or traffic) to commit: taking the
 * tables in share mode waits for their writers, and is let go at once. A change written after it
 * is dated after it (usage_clock() reads the clock once it holds its own lock), so in a later hour
 * than any that has ended by then.
 */
export async function awaitHistoryWriters(db: Database): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`lock table usage_states, usage_traffic in share mode`.execute(trx);
  });
}
