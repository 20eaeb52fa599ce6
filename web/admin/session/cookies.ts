import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { ADMIN_LOGIN_COOKIE, ADMIN_SESSION_COOKIE } from '../../../domain/admin-sessions.js';
import { ADMIN_BASE } from '../../../wire/paths.js';
import type { PageEnv } from '../context.js';
import { overTls } from '../http.js';

/** The cookies go only with requests for the admin pages, never with the APIs'. */
const SESSION_COOKIE_PATH = ADMIN_BASE;
/** How long a login form stays good. */
const LOGIN_FORM_MAX_AGE_S = 30 * 60;

/**
 * The session's cookie (docs/admin-pages.md): HttpOnly, so no script reads it; SameSite=Lax, so no
 * other site's form or fetch carries it; Secure over TLS; gone when the session ends.
 */
export function setSessionCookie(c: Context<PageEnv>, token: string, expiresAt: Date): void {
  setCookie(c, ADMIN_SESSION_COOKIE, token, {
    path: SESSION_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Lax',
    secure: overTls(c),
    expires: expiresAt,
  });
}

export const clearSessionCookie = (c: Context<PageEnv>) =>
  deleteCookie(c, ADMIN_SESSION_COOKIE, { path: SESSION_COOKIE_PATH, secure: overTls(c) });

/** The login form's double-submit cookie: the form's hidden field must carry the same value. */
export function setLoginCookie(c: Context<PageEnv>, nonce: string): void {
  setCookie(c, ADMIN_LOGIN_COOKIE, nonce, {
    path: SESSION_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Strict',
    secure: overTls(c),
    maxAge: LOGIN_FORM_MAX_AGE_S,
  });
}

export const clearLoginCookie = (c: Context<PageEnv>) =>
  deleteCookie(c, ADMIN_LOGIN_COOKIE, { path: SESSION_COOKIE_PATH, secure: overTls(c) });
