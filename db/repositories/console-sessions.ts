import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import {
  type ConsoleEndReason,
  type ConsoleKind,
  type ConsoleSessionState,
  LIVE_CONSOLE_STATES,
} from '../../domain/console/sessions.js';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import type { Database } from '../database.js';
import type { DB } from '../schema.js';

// Console sessions: their rows, and every way one ends (each ending appended to the feed the
// gateways follow, in the statement that ends it).

function sessions(db: Database) {
  return db
    .selectFrom('console_sessions as s')
    .select([
      's.id',
      's.instance_id',
      's.user_id',
      's.kind',
      's.state',
      's.gateway_credential_id',
      's.created_at',
      's.connect_by',
      's.expires_at',
      's.validated_at',
      's.connected_at',
      's.disconnected_at',
      's.last_heartbeat_at',
      's.ended_at',
      's.end_reason',
    ]);
}

export type ConsoleSessionRow = Awaited<ReturnType<typeof findConsoleSession>> & {};

export async function findConsoleSession(db: Database, id: string) {
  return sessions(db).where('s.id', '=', id).executeTakeFirst();
}

/** The session, if it is of this instance. */
export async function findSessionOfInstance(db: Database, instanceId: string, id: string) {
  return sessions(db).where('s.id', '=', id).where('s.instance_id', '=', instanceId).executeTakeFirst();
}

export interface NewConsoleSession {
  readonly id: string;
  readonly instanceId: string;
  readonly userId: string;
  readonly kind: ConsoleKind;
  readonly connectTokenHash: string;
  readonly connectTtlMs: number;
  readonly sessionTtlMs: number;
}

/** Live sessions of the instance; the caller holds the instance's row lock to count and insert. */
export async function countLiveSessions(trx: Database, instanceId: string): Promise<number> {
  const row = await trx
    .selectFrom('console_sessions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('instance_id', '=', instanceId)
    .where('state', 'in', LIVE_CONSOLE_STATES)
    .where('expires_at', '>', sql<Date>`now()`)
    // A token never redeemed in time holds no place, swept or not.
    .where((eb) => eb.or([eb('state', '!=', 'pending'), eb('connect_by', '>', sql<Date>`now()`)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertConsoleSession(trx: Database, session: NewConsoleSession) {
  return trx
    .insertInto('console_sessions')
    .values({
      id: session.id,
      instance_id: session.instanceId,
      user_id: session.userId,
      kind: session.kind,
      state: 'pending',
      connect_token_hash: session.connectTokenHash,
      connect_by: sql`now() + ${`${Math.min(session.connectTtlMs, session.sessionTtlMs)} milliseconds`}::interval`,
      expires_at: sql`now() + ${`${session.sessionTtlMs} milliseconds`}::interval`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

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
        .where((eb) => eb.and([eb('state', 'in', LIVE_CONSOLE_STATES), where(eb)]))
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

/**
 * Redeems a connect token once: the pending session whose hash it is, before its `connect_by`,
 * becomes `validated` by this gateway (a compare-and-set). Undefined when any of these fails.
 */
export async function redeemConnectToken(db: Database, tokenHash: string, gatewayCredentialId: string) {
  return db
    .updateTable('console_sessions')
    .set({
      state: 'validated',
      validated_at: sql`now()`,
      last_heartbeat_at: sql`now()`,
      gateway_credential_id: gatewayCredentialId,
    })
    .where('connect_token_hash', '=', tokenHash)
    .where('state', '=', 'pending')
    .where('connect_by', '>', sql<Date>`now()`)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['id', 'instance_id', 'user_id', 'kind', 'expires_at'])
    .executeTakeFirst();
}

/** The gateway that holds the session reports its relay up: `validated` → `connected`. */
export async function markConnected(db: Database, id: string, gatewayCredentialId: string): Promise<boolean> {
  const result = await db
    .updateTable('console_sessions')
    .set({ state: 'connected', connected_at: sql`now()`, last_heartbeat_at: sql`now()` })
    .where('id', '=', id)
    .where('gateway_credential_id', '=', gatewayCredentialId)
    .where('state', 'in', ['validated', 'connected'] satisfies ConsoleSessionState[])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A gateway's heartbeat: it is alive, with `relayUrl`, and the named sessions still live and its own are kept alive. */
export async function heartbeatGateway(
  db: Database,
  gatewayCredentialId: string,
  beat: { relayUrl: string | null; sessionIds: readonly string[] },
): Promise<void> {
  await db
    .insertInto('console_gateways')
    .values({
      credential_id: gatewayCredentialId,
      relay_url: beat.relayUrl,
      sessions: beat.sessionIds.length,
    })
    .onConflict((oc) =>
      oc.column('credential_id').doUpdateSet({
        relay_url: beat.relayUrl,
        sessions: beat.sessionIds.length,
        last_heartbeat_at: sql`now()`,
      }),
    )
    .execute();
  if (beat.sessionIds.length === 0) return;
  await db
    .updateTable('console_sessions')
    .set({ last_heartbeat_at: sql`now()` })
    .where('id', 'in', beat.sessionIds)
    .where('gateway_credential_id', '=', gatewayCredentialId)
    .where('state', 'in', ['validated', 'connected'] satisfies ConsoleSessionState[])
    .execute();
}

/** Which of the sessions a gateway named are over for it: ended, or never its own. */
export async function endedAmong(db: Database, gatewayCredentialId: string, sessionIds: readonly string[]) {
  if (sessionIds.length === 0) return [];
  const ended = await db
    .selectFrom('console_sessions')
    .select('id')
    .where('id', 'in', sessionIds)
    .where((eb) => eb.or([eb('state', '=', 'ended'), eb('gateway_credential_id', '!=', gatewayCredentialId)]))
    .execute();
  return ended.map((r) => r.id);
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

export interface ConsoleSessionFilters {
  readonly userId?: string | undefined;
  readonly instanceId?: string | undefined;
  /** `live`: any state but ended. */
  readonly state?: ConsoleSessionState | 'live' | undefined;
}

/** Every session the filters let through, newest first, a page of them and the total. */
export async function listConsoleSessions(db: Database, filters: ConsoleSessionFilters, page: PageRequest) {
  const filtered = <Q extends ReturnType<typeof sessions>>(q: Q) =>
    q
      .$if(filters.userId !== undefined, (w) => w.where('s.user_id', '=', filters.userId!))
      .$if(filters.instanceId !== undefined, (w) => w.where('s.instance_id', '=', filters.instanceId!))
      .$if(filters.state === 'live', (w) => w.where('s.state', 'in', LIVE_CONSOLE_STATES))
      .$if(filters.state !== undefined && filters.state !== 'live', (w) =>
        w.where('s.state', '=', filters.state as ConsoleSessionState),
      );
  const [rows, total] = await Promise.all([
    filtered(sessions(db))
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    filtered(sessions(db))
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.total };
}

/** Where agents reach the gateway to relay consoles, as its last heartbeat said; null if none. */
export async function gatewayRelayUrl(db: Database, gatewayCredentialId: string): Promise<string | null> {
  const row = await db
    .selectFrom('console_gateways')
    .select('relay_url')
    .where('credential_id', '=', gatewayCredentialId)
    .executeTakeFirst();
  return row?.relay_url ?? null;
}
