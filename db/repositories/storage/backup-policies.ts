import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

const POLICY_COLUMNS = [
  'id',
  'instance_id',
  'user_id',
  'name',
  'cron',
  'interval_minutes',
  'keep_last',
  'keep_days',
  'paused',
  'last_run_at',
  'last_run',
  'created_at',
  'updated_at',
] as const;

export type BackupPolicyRow = NonNullable<Awaited<ReturnType<typeof findPolicyOfInstance>>>;

export interface PolicyFields {
  readonly name: string;
  readonly cron: string | null;
  readonly intervalMinutes: number | null;
  readonly keepLast: number;
  readonly keepDays: number | null;
  readonly paused: boolean;
}

const columnsOf = (fields: PolicyFields) => ({
  name: fields.name,
  cron: fields.cron,
  interval_minutes: fields.intervalMinutes,
  keep_last: fields.keepLast,
  keep_days: fields.keepDays,
  paused: fields.paused,
});

export async function insertPolicy(
  db: Database,
  policy: PolicyFields & { id: string; instanceId: string; userId: string },
): Promise<BackupPolicyRow> {
  return db
    .insertInto('backup_policies')
    .values({ id: policy.id, instance_id: policy.instanceId, user_id: policy.userId, ...columnsOf(policy) })
    .returning(POLICY_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findPolicyOfInstance(db: Database, instanceId: string, policyId: string) {
  return db
    .selectFrom('backup_policies')
    .select(POLICY_COLUMNS)
    .where('id', '=', policyId)
    .where('instance_id', '=', instanceId)
    .executeTakeFirst();
}

/** A schedule by its id alone, for its scheduled runs. */
export async function findPolicy(db: Database, policyId: string) {
  return db
    .selectFrom('backup_policies')
    .select(POLICY_COLUMNS)
    .where('id', '=', policyId)
    .executeTakeFirst();
}

export async function listPoliciesOfInstance(db: Database, instanceId: string, page: PageRequest) {
  const base = db.selectFrom('backup_policies').where('instance_id', '=', instanceId);
  const [rows, total] = await Promise.all([
    base
      .select(POLICY_COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

export async function listPolicyIdsOfInstance(db: Database, instanceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('backup_policies')
    .select('id')
    .where('instance_id', '=', instanceId)
    .execute();
  return rows.map((r) => r.id);
}

export async function countPoliciesOfInstance(db: Database, instanceId: string): Promise<number> {
  const row = await db
    .selectFrom('backup_policies')
    .select(sql<string>`count(*)`.as('n'))
    .where('instance_id', '=', instanceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether another schedule of the instance has the name. */
export async function policyNameExists(db: Database, instanceId: string, name: string, exceptId?: string) {
  let query = db
    .selectFrom('backup_policies')
    .select('id')
    .where('instance_id', '=', instanceId)
    .where('name', '=', name);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function updatePolicy(
  db: Database,
  policyId: string,
  fields: PolicyFields,
): Promise<BackupPolicyRow | undefined> {
  return db
    .updateTable('backup_policies')
    .set({ ...columnsOf(fields), updated_at: sql`now()` })
    .where('id', '=', policyId)
    .returning(POLICY_COLUMNS)
    .executeTakeFirst();
}

export async function deletePolicy(db: Database, policyId: string): Promise<boolean> {
  const result = await db.deleteFrom('backup_policies').where('id', '=', policyId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** What a scheduled run did, shown with the schedule. */
export async function recordPolicyRun(
  db: Database,
  policyId: string,
  run: Record<string, unknown>,
): Promise<void> {
  await db
    .updateTable('backup_policies')
    .set({ last_run_at: sql`now()`, last_run: JSON.stringify(run) })
    .where('id', '=', policyId)
    .execute();
}
