import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { ConsoleEndReason } from '../../../domain/console/sessions.js';
import type { Database } from '../../database.js';
import type { DB } from '../../schema.js';

// How console sessions end: every way, in one statement each, each ending appended to the feed
// the gateways follow (their revocations).

type Where = (eb: ExpressionBuilder<DB, 'console_sessions'>) => Expression<SqlBool>;

/**
 * Ends the live sessions `where` picks, for `reason`, and appends each to the endings feed, in
 * one statement. Returns the ids it ended (none when they had ended already).
 */
export async function endConsoleSessions(
  db: Database,
  reason: ConsoleEndReason,
  where: Where,
): Promise<string[]> {
  const rows = await db
    .with('ended', (qb) =>
      qb
        .updateTable('console_sessions')
        .set({
          state: 'ended',
          ended_at: sql`now()`,
          end_reason: reason,
          ...(reason === 'disconnected' ? { disconnected_at: sql`now()` } : {}),
        })
        // Not `ended`, spelt as the partial index of live sessions is (console_sessions_live), so
        // the sweeps read the few live rows, not every session there ever was.
        .where((eb) => eb.and([eb('state', '!=', 'ended'), where(eb)]))
        .returning('id'),
    )
    .insertInto('console_session_endings')
    .columns(['session_id', 'reason'])
    .expression((eb) => eb.selectFrom('ended').select(['ended.id', sql.lit(reason).as('reason')]))
    .returning('session_id')
    .execute();
  return rows.map((r) => r.session_id);
}

/**
 * Sessions past their time end now: `expired` once past `expires_at` or, never redeemed, past
 * `connect_by`; `gateway_lost` once their gateway has not heartbeated them for `heartbeatTimeoutMs`.
 */
export async function sweepConsoleSessions(db: Database, heartbeatTimeoutMs: number): Promise<void> {
  await endConsoleSessions(db, 'expired', (eb) =>
    eb.or([
      eb('expires_at', '<=', sql<Date>`now()`),
      eb.and([eb('state', '=', 'pending'), eb('connect_by', '<=', sql<Date>`now()`)]),
    ]),
  );
  await endConsoleSessions(db, 'gateway_lost', (eb) =>
    eb.and([
      eb('state', 'in', ['validated', 'connected']),
      eb('last_heartbeat_at', '<=', sql<Date>`now() - ${`${heartbeatTimeoutMs} milliseconds`}::interval`),
    ]),
  );
}

/** The endings after `cursor` (the feed's last id seen), oldest first, at most `limit`. */
export async function endingsAfter(db: Database, cursor: string, limit: number) {
  return db
    .selectFrom('console_session_endings as e')
    .innerJoin('console_sessions as s', 's.id', 'e.session_id')
    .select(['e.id', 'e.session_id', 'e.reason', 's.ended_at'])
    .where('e.id', '>', cursor)
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

/** The feed's newest id ('0' when empty): where a gateway that starts now begins. */
export async function latestEnding(db: Database): Promise<string> {
  const row = await db
    .selectFrom('console_session_endings')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ? String(row.id) : '0';
}
