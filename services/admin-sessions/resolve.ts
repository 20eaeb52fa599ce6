import { findAdminSession, touchAdminSession } from '../../db/repositories/accounts/admin-sessions.js';
import { sessionEnd } from '../../domain/admin-sessions.js';
import { hashToken } from '../../domain/credentials.js';
import type { ServiceDeps } from '../context.js';

/** Who a page's request comes from: an administrator, through the session an application key opened. */
export interface AdminSession {
  readonly id: string;
  readonly credentialId: string;
  readonly userId: string;
  /** How the pages greet the administrator. */
  readonly userName: string;
  readonly expiresAt: Date;
}

/**
 * The live session of a cookie's token: not logged out, within its lifetime and idle window, and
 * its key still live (findAdminSession). Each use counts as activity.
 */
export async function resolveAdminSession(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  token: string,
): Promise<AdminSession | undefined> {
  const row = await findAdminSession(deps.db, hashToken(token));
  if (!row) return undefined;
  const times = { endedAt: row.ended_at, expiresAt: row.expires_at, lastSeenAt: row.last_seen_at };
  if (sessionEnd(times, row.now, deps.config.ADMIN_SESSION_IDLE_MS)) return undefined;
  await touchAdminSession(deps.db, row.id);
  return {
    id: row.id,
    credentialId: row.credential_id,
    userId: row.user_id,
    userName: row.user_name || row.user_email,
    expiresAt: row.expires_at,
  };
}
