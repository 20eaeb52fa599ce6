import { sql } from 'kysely';
import {
  type ConsoleKind,
  type ConsoleSessionState,
  LIVE_CONSOLE_STATES,
} from '../../../domain/console/sessions.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

// Console sessions: their rows, made, redeemed and connected. How they end is console-endings.ts.

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
