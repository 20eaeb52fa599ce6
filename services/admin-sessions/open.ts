import { randomUUID } from 'node:crypto';
import { findActiveCredential } from '../../db/repositories/accounts/active-credentials.js';
import { insertAdminSession } from '../../db/repositories/accounts/admin-sessions.js';
import { hitRateLimit } from '../../db/repositories/accounts/rate-limits.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import { issueSessionToken } from '../../domain/admin-sessions.js';
import { claimedType, hashToken } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';

export interface AdminLogin {
  /** The application key the administrator typed. */
  readonly key: string;
  /** The caller's address, which the failures' rate limit is kept per. */
  readonly clientIp: string;
}

export interface OpenedAdminSession {
  /** The cookie's value; only its hash is stored. */
  readonly token: string;
  readonly expiresAt: Date;
}

/**
 * Opens an admin pages' session with an administrator's live application key (docs/admin-pages.md).
 * A client key, or any other credential, is refused with 403 whatever its state; an unknown, revoked
 * or expired key with 401. Each address may fail ADMIN_LOGIN_RATE_LIMIT_PER_MINUTE times a minute.
 */
export async function openAdminSession(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'logger'>,
  login: AdminLogin,
): Promise<OpenedAdminSession> {
  const key = login.key.trim();
  const credential = key ? await findActiveCredential(deps.db, hashToken(key)) : undefined;
  if (credential?.type !== 'application' || !credential.userId) {
    const verdict = await hitRateLimit(deps.db, {
      key: `admin-login:${login.clientIp}`,
      limit: deps.config.ADMIN_LOGIN_RATE_LIMIT_PER_MINUTE,
      windowMs: 60_000,
    });
    if (!verdict.allowed)
      throw new ApiError('SVC-REQ-429', { headers: { 'Retry-After': String(verdict.retryAfterSeconds) } });
    const claimed = credential?.type ?? claimedType(key);
    throw new ApiError(claimed && claimed !== 'application' ? 'SVC-ADMIN-LOGIN-403' : 'SVC-ADMIN-LOGIN-401');
  }
  const issued = issueSessionToken();
  const { expiresAt } = await insertAdminSession(deps.db, {
    id: randomUUID(),
    tokenHash: issued.hash,
    credentialId: credential.id,
    userId: credential.userId,
    ttlMs: deps.config.ADMIN_SESSION_TTL_MS,
  });
  await recordActivity(deps.db, {
    userId: credential.userId,
    actor: `admin:${credential.userId}`,
    event: 'admin.session_opened',
    detail: { credential_id: credential.id, expires_at: expiresAt.toISOString() },
  });
  deps.logger.info('admin session opened', { user_id: credential.userId, credential_id: credential.id });
  return { token: issued.token, expiresAt };
}
