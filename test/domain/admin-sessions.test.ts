import { describe, expect, it } from 'vitest';
import { csrfTokenOf, issueSessionToken, sameSecret, sessionEnd } from '../../domain/admin-sessions.js';
import { hashToken } from '../../domain/credentials.js';

const now = new Date('2026-11-29T03:00:00Z');
const at = (msFromNow: number) => new Date(now.getTime() + msFromNow);
const HOUR = 3_600_000;

describe('an admin session', () => {
  it('is open within its lifetime and idle window, and not after', () => {
    const live = { endedAt: null, expiresAt: at(HOUR), lastSeenAt: at(-HOUR / 2) };
    expect(sessionEnd(live, now, HOUR)).toBeUndefined();
    expect(sessionEnd({ ...live, lastSeenAt: at(-HOUR) }, now, HOUR)).toBe('idle');
    expect(sessionEnd({ ...live, expiresAt: now }, now, HOUR)).toBe('expired');
    expect(sessionEnd({ ...live, endedAt: at(-1) }, now, HOUR)).toBe('logged_out');
  });

  it('has a new random token each time, stored as its hash', () => {
    const [a, b] = [issueSessionToken(), issueSessionToken()];
    expect(a.token).not.toBe(b.token);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.hash).toBe(hashToken(a.token));
  });

  it('has a form token of its own, which is not the cookie and fits no other session', () => {
    const [a, b] = [issueSessionToken().token, issueSessionToken().token];
    expect(csrfTokenOf(a)).toBe(csrfTokenOf(a));
    expect(csrfTokenOf(a)).not.toBe(a);
    expect(sameSecret(csrfTokenOf(a), csrfTokenOf(a))).toBe(true);
    expect(sameSecret(csrfTokenOf(a), csrfTokenOf(b))).toBe(false);
    expect(sameSecret(csrfTokenOf(a), undefined)).toBe(false);
    expect(sameSecret(csrfTokenOf(a), '')).toBe(false);
  });
});
