/**
 * A month of usage history for a large plane, written the way the plane writes it: instances are
 * inserted and changed in bulk, and the tables' own triggers append each change to `usage_states`
 * (db/migrations/20261209T0100_usage_history.ts), dated by the `cloudsvc.usage_clock` setting of
 * the change's transaction, as the tests replay history (test/usage/history.ts). Then the month's
 * hours are closed by the worker's own closing service, one at a time, each timed.
 */
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { createCredential } from '../db/repositories/accounts/credentials.js';
import { insertUser } from '../db/repositories/accounts/users.js';
import { upsertPlan } from '../db/repositories/catalogue/catalog.js';
import { addHours } from '../domain/usage/hours.js';
import { closeHour } from '../services/usage/close-hours.js';

export interface UsageScale {
  readonly users: number;
  readonly instancesPerUser: number;
}

/** The month the history covers: October 2026, 744 hours, long ended. */
export const MONTH = { from: new Date('2026-10-01T00:00:00Z'), hours: 744 } as const;

/** Runs `change` in a transaction whose history the triggers date `when`. */
function at(db: Database, when: Date, change: (trx: Database) => Promise<unknown>) {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('cloudsvc.usage_clock', ${when.toISOString()}, true)`.execute(trx);
    await change(trx);
  });
}

/**
 * `scale.users` customers of `scale.instancesPerUser` instances each, running from the month's
 * first hour; nine in ten of a plan, one in ten of a custom size (four records an hour, not one).
 * Each day a thirty-first of them is stopped at 10:17 and started again at 14:43, so those hours
 * split. Returns the first customer (whose month is read) and an administrator's key.
 */
export async function seedUsageMonth(db: Database, locationId: string, scale: UsageScale) {
  const plan = await upsertPlan(db, {
    code: 'bench-usage',
    name: 'Bench usage',
    cpu_cores: 2,
    memory_mb: 2048,
    disk_mb: 40960,
  });
  const users: string[] = [];
  for (let u = 0; u < scale.users; u++)
    users.push(
      (await insertUser(db, { email: `bench-usage-${u}@example.test`, name: `Usage ${u}`, isAdmin: false }))
        .id,
    );
  const count = scale.users * scale.instancesPerUser;
  await at(db, MONTH.from, (trx) =>
    sql`
      insert into instances (user_id, location_id, plan_id, name, hostname, status, cpu_cores, memory_mb,
                             disk_mb, virtualization, boot_order, created_at, updated_at)
      select (${sql.lit(`{${users.join(',')}}`)}::uuid[])[1 + (g - 1) / ${scale.instancesPerUser}],
             ${locationId}, case when g % 10 = 0 then null else ${plan.id}::uuid end, 'usage-' || g,
             'usage-' || g || '.example.test', 'running', 2, 2048, 40960, 'kvm', '["disk"]',
             ${MONTH.from}, ${MONTH.from}
        from generate_series(1, ${count}) g`.execute(trx),
  );
  for (let day = 0; day < MONTH.hours / 24; day++) {
    const chosen = sql`name like 'usage-%' and substr(name, 7)::int % 31 = ${day}`;
    await at(db, addHours(MONTH.from, day * 24 + 10.28), (trx) =>
      sql`update instances set status = 'stopped', updated_at = now() where ${chosen}`.execute(trx),
    );
    await at(db, addHours(MONTH.from, day * 24 + 14.72), (trx) =>
      sql`update instances set status = 'running', updated_at = now() where ${chosen}`.execute(trx),
    );
  }
  await sql`analyze`.execute(db);
  const history = await sql<{ n: string }>`select count(*) as n from usage_states`.execute(db);
  const admin = await insertUser(db, {
    email: 'bench-usage-admin@example.test',
    name: 'Usage admin',
    isAdmin: true,
  });
  const key = (await createCredential(db, { type: 'application', userId: admin.id })).token;
  return { userId: users[0] as string, key, states: Number(history.rows[0]?.n ?? 0) };
}

export interface HourClosed {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly records: number;
}

/**
 * Closes the month's hours oldest first with the closing service, until all are closed or
 * `budgetMs` is spent: each hour's wall time and this process's CPU time (user and system) around
 * it. PostgreSQL's own CPU is not counted here: it is another process.
 */
export async function closeMonth(db: Database, budgetMs: number): Promise<HourClosed[]> {
  const closed: HourClosed[] = [];
  const started = performance.now();
  for (let h = 0; h < MONTH.hours && performance.now() - started < budgetMs; h++) {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const result = await closeHour({ db }, addHours(MONTH.from, h));
    const used = process.cpuUsage(cpu);
    if (!result.closed) throw new Error(`hour ${h} was closed by another closer: run this part alone`);
    closed.push({
      wallMs: performance.now() - wall,
      cpuMs: (used.user + used.system) / 1000,
      records: result.records,
    });
  }
  return closed;
}
