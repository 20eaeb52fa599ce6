import type { UsageRecordDraft } from '../../../domain/usage/build.js';
import type { Database } from '../../database.js';

// Usage records and the hours they close (docs/usage.md): written once per hour, in the closing's
// transaction, never updated (a trigger refuses it).

const RECORD_COLUMNS = [
  'id',
  'hour',
  'user_id',
  'instance_id',
  'resource_type',
  'resource_id',
  'plan_id',
  'plan_code',
  'metric',
  'quantity',
  'unit',
  'created_at',
] as const;

export type UsageRecordRow = Awaited<ReturnType<typeof listUsageRecords>>['rows'][number];

export interface UsageFilters {
  readonly userId?: string;
  readonly instanceId?: string;
  readonly from: Date;
  readonly to: Date;
}

/** The newest closed hour; null before the first closing. */
export async function lastClosedHour(db: Database): Promise<Date | null> {
  const row = await db
    .selectFrom('usage_hours')
    .select('hour')
    .orderBy('hour', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.hour ?? null;
}

/**
 * Takes `hour` for the caller's transaction: true when it was not closed. A second closing at the
 * same moment waits here for the first to commit, then finds the hour taken.
 */
export async function claimHour(db: Database, hour: Date): Promise<boolean> {
  const claimed = await db
    .insertInto('usage_hours')
    .values({ hour })
    .onConflict((oc) => oc.column('hour').doNothing())
    .returning('hour')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Stores a claimed hour's records and how many it has. */
export async function storeHourRecords(db: Database, hour: Date, records: readonly UsageRecordDraft[]) {
  for (let i = 0; i < records.length; i += 1000) {
    await db
      .insertInto('usage_records')
      .values(
        records.slice(i, i + 1000).map((r) => ({
          hour: r.hour,
          user_id: r.userId,
          instance_id: r.instanceId,
          resource_type: r.resourceType,
          resource_id: r.resourceId,
          plan_id: r.planId,
          plan_code: r.planCode,
          metric: r.metric,
          quantity: r.quantity,
          unit: r.unit,
        })),
      )
      .execute();
  }
  await db.updateTable('usage_hours').set({ records: records.length }).where('hour', '=', hour).execute();
}

function filtered(db: Database, filters: UsageFilters) {
  let query = db.selectFrom('usage_records').where('hour', '>=', filters.from).where('hour', '<', filters.to);
  if (filters.userId !== undefined) query = query.where('user_id', '=', filters.userId);
  if (filters.instanceId !== undefined) query = query.where('instance_id', '=', filters.instanceId);
  return query;
}

/** One page of the records that match, by hour and then as they were written, and how many match. */
export async function listUsageRecords(
  db: Database,
  filters: UsageFilters,
  page: { offset: number; limit: number },
) {
  const [rows, count] = await Promise.all([
    filtered(db, filters)
      .select(RECORD_COLUMNS)
      .orderBy('hour')
      .orderBy('id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(db, filters)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Where an export's previous batch ended: its last record's hour and id. */
export interface UsageCursor {
  readonly hour: Date;
  readonly id: string;
}

/**
 * The records that match after `after`, by hour and then as written, `limit` at most: an export's
 * batch. A keyset on (hour, id), which the user's and the instance's indexes hold in that order, so
 * each batch starts where the last ended instead of sorting what is left of the range again.
 */
export async function usageRecordsAfter(
  db: Database,
  filters: UsageFilters,
  after: UsageCursor | null,
  limit: number,
) {
  return filtered(db, filters)
    .select(RECORD_COLUMNS)
    .$if(after !== null, (q) =>
      q.where((eb) => eb(eb.refTuple('hour', 'id'), '>', eb.tuple(after!.hour, after!.id))),
    )
    .orderBy('hour')
    .orderBy('id')
    .limit(limit)
    .execute();
}
