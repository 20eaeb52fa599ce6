import { sql } from 'kysely';
import type { ScheduledAction, ScheduledRunOutcome } from '../../../domain/instances/scheduled-actions.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

const COLUMNS = [
  'id',
  'instance_id',
  'user_id',
  'action',
  'cron',
  'run_at',
  'last_run_at',
  'last_run',
  'created_at',
] as const;

export interface NewScheduledAction {
  readonly id: string;
  readonly instanceId: string;
  readonly userId: string;
  readonly action: ScheduledAction;
  readonly cron: string | null;
  readonly runAt: Date | null;
}

/**
 * Records a scheduled action unless the instance holds `limit` already: the instance's row is
 * locked first, so two creates at once never both take the last place. Undefined at the limit.
 */
export async function insertScheduledActionWithin(trx: Database, action: NewScheduledAction, limit: number) {
  await sql`select 1 from instances where id = ${action.instanceId} for update`.execute(trx);
  const { count } = await trx
    .selectFrom('scheduled_actions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('instance_id', '=', action.instanceId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= limit) return undefined;
  return trx
    .insertInto('scheduled_actions')
    .values({
      id: action.id,
      instance_id: action.instanceId,
      user_id: action.userId,
      action: action.action,
      cron: action.cron,
      run_at: action.runAt,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export type ScheduledActionRow = NonNullable<Awaited<ReturnType<typeof insertScheduledActionWithin>>>;

export function findScheduledAction(db: Database, actionId: string) {
  return db.selectFrom('scheduled_actions').select(COLUMNS).where('id', '=', actionId).executeTakeFirst();
}

export function findScheduledActionOfInstance(db: Database, instanceId: string, actionId: string) {
  return db
    .selectFrom('scheduled_actions')
    .select(COLUMNS)
    .where('id', '=', actionId)
    .where('instance_id', '=', instanceId)
    .executeTakeFirst();
}

/** The instance's scheduled actions, oldest first, one page, and how many there are. */
export async function listScheduledActions(db: Database, instanceId: string, page: PageRequest) {
  const base = db.selectFrom('scheduled_actions').where('instance_id', '=', instanceId);
  const [rows, { total }] = await Promise.all([
    base
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total) };
}

export async function listScheduledActionIds(db: Database, instanceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('scheduled_actions')
    .select('id')
    .where('instance_id', '=', instanceId)
    .execute();
  return rows.map((r) => r.id);
}

/** True when there was such an action to delete. */
export async function deleteScheduledAction(db: Database, actionId: string): Promise<boolean> {
  const result = await db.deleteFrom('scheduled_actions').where('id', '=', actionId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function recordScheduledRun(db: Database, actionId: string, outcome: ScheduledRunOutcome) {
  await db
    .updateTable('scheduled_actions')
    .set({ last_run_at: sql`now()`, last_run: JSON.stringify(outcome) })
    .where('id', '=', actionId)
    .execute();
}
