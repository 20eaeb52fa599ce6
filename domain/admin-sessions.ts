import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken } from './credentials.js';

/**
 * The admin pages' sessions (docs/admin-pages.md "Signing in"). An administrator opens one with an
 * application key; the browser holds a random token in an HttpOnly cookie and the database its
 * hash. A form proves it came from a page of the session by a token derived from the session's.
 */

export const ADMIN_SESSION_COOKIE = 'cloudsvc_admin_session';
/** Before a session exists, the login form is bound to the browser by this cookie (double submit). */
export const ADMIN_LOGIN_COOKIE = 'cloudsvc_admin_login';

export interface IssuedSessionToken {
  /** Set in the cookie; never stored. */
  readonly token: string;
  readonly hash: string;
}

export function issueSessionToken(): IssuedSessionToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** A random value for the login form's double-submit cookie. */
export const issueLoginNonce = (): string => randomBytes(24).toString('base64url');

/**
 * The session's form token: derived from the cookie's token, so it needs no storage and a page of
 * one session is no use in another; never the cookie's value itself, which scripts cannot read.
 */
export const csrfTokenOf = (sessionToken: string): string =>
  createHmac('sha256', sessionToken).update('cloudsvc admin form').digest('base64url');

/** Compares in constant time: a guesser learns nothing from how long a refusal took. */
export function sameSecret(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const SESSION_ENDS = ['logged_out', 'expired', 'idle'] as const;
export type SessionEnd = (typeof SESSION_ENDS)[number];

/** Whether a session still opens pages: not logged out, within its lifetime and not idle too long. */
export function sessionEnd(
  session: { endedAt: Date | null; expiresAt: Date; lastSeenAt: Date },
  now: Date,
  idleMs: number,
): SessionEnd | undefined {
  if (session.endedAt) return 'logged_out';
  if (session.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (session.lastSeenAt.getTime() + idleMs <= now.getTime()) return 'idle';
  return undefined;
}
