import { sql } from 'kysely';
import type { Database } from '../../database.js';

/** Sessions past their end are removed a few at a time, each time one is opened. */
const PRUNE_BATCH = 100;
/** last_seen_at is written at most this often: idleness is measured in minutes, not per request. */
const TOUCH_EVERY_MS = 60_000;

export interface NewAdminSession {
  readonly id: string;
  readonly tokenHash: string;
  readonly credentialId: string;
  readonly userId: string;
  readonly ttlMs: number;
}

export async function insertAdminSession(
  db: Database,
  session: NewAdminSession,
): Promise<{ expiresAt: Date }> {
  const row = await db
    .insertInto('admin_sessions')
    .values({
      id: session.id,
      token_hash: session.tokenHash,
      credential_id: session.credentialId,
      user_id: session.userId,
      expires_at: sql`now() + ${`${session.ttlMs} milliseconds`}::interval`,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  await pruneEndedSessions(db);
  return { expiresAt: row.expires_at };
}

async function pruneEndedSessions(db: Database): Promise<void> {
  await db
    .deleteFrom('admin_sessions')
    .where(
      'id',
      'in',
      db
        .selectFrom('admin_sessions')
        .select('id')
        .where('expires_at', '<=', sql<Date>`now()`)
        .limit(PRUNE_BATCH)
        .forUpdate()
        .skipLocked(),
    )
    .execute();
}

/**
 * The session with this token hash while the key that opened it is live: neither revoked nor
 * expired, its user an administrator and not disabled (the same rules as the key's own use). With
 * the database's time, which the session's times were written in.
 */
export async function findAdminSession(db: Database, tokenHash: string) {
  return db
    .selectFrom('admin_sessions as s')
    .innerJoin('credentials as c', 'c.id', 's.credential_id')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.credential_id',
      's.user_id',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      's.ended_at',
      'u.name as user_name',
      'u.email as user_email',
      sql<Date>`now()`.as('now'),
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('c.type', '=', 'application')
    .where('c.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('c.expires_at', 'is', null), eb('c.expires_at', '>', sql<Date>`now()`)]))
    .where('u.disabled_at', 'is', null)
    .where('u.is_admin', '=', true)
    .executeTakeFirst();
}

export type AdminSessionRow = NonNullable<Awaited<ReturnType<typeof findAdminSession>>>;

/** Marks the session seen now, unless it was within the last minute. */
export async function touchAdminSession(db: Database, sessionId: string): Promise<void> {
  await db
    .updateTable('admin_sessions')
    .set({ last_seen_at: sql`now()` })
    .where('id', '=', sessionId)
    .where('last_seen_at', '<', sql<Date>`now() - ${`${TOUCH_EVERY_MS} milliseconds`}::interval`)
    .execute();
}

/** Logs the session out; a second logout finds it ended and changes nothing. */
export async function endAdminSession(db: Database, sessionId: string): Promise<void> {
  await db
    .updateTable('admin_sessions')
    .set({ ended_at: sql`now()` })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}
