import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Actor } from '../../../domain/actors.js';
import { ADMIN_SESSION_COOKIE, csrfTokenOf } from '../../../domain/admin-sessions.js';
import { resolveAdminSession } from '../../../services/admin-sessions/resolve.js';
import type { PageEnv } from '../context.js';
import { wantsPage } from '../http.js';
import { pages } from '../paths.js';
import { clearSessionCookie } from './cookies.js';

/** The header a live region's refresh sends (assets/live.ts): it is told 401, not sent to the login page. */
export const LIVE_REFRESH_HEADER = 'x-live-refresh';

/**
 * Lets a request through with a live session (services/admin-sessions/resolve.ts); any other goes
 * to the login page, which brings the administrator back here afterwards.
 */
export const signedIn: MiddlewareHandler<PageEnv> = async (c, next) => {
  const token = getCookie(c, ADMIN_SESSION_COOKIE);
  const session = token ? await resolveAdminSession(c.get('deps'), token) : undefined;
  if (!token || !session) {
    if (token) clearSessionCookie(c);
    if (c.req.header(LIVE_REFRESH_HEADER)) return c.body(null, 401);
    const url = new URL(c.req.url);
    const back = c.req.method === 'GET' ? `${url.pathname}${url.search}` : url.pathname;
    return c.redirect(`${pages.login}?next=${encodeURIComponent(back)}`, 303);
  }
  c.set('session', session);
  c.set('csrf', csrfTokenOf(token));
  await next();
};

/**
 * A page on a path the admin API shares (`GET /migrations`): a browser's request (HTML, no
 * credential) is the page's, signed in; any other goes on to the API.
 */
export function sharedWithApi(page: (c: Context<PageEnv>) => Promise<Response>): MiddlewareHandler<PageEnv> {
  return async (c, next) => {
    if (!wantsPage(c)) return next();
    let response: Response | undefined;
    const refused = await signedIn(c, async () => {
      response = await page(c);
    });
    return refused ?? response;
  };
}

/** The administrator of the request's session, as the services record who asked. */
export const sessionAdmin = (c: Context<PageEnv>): Extract<Actor, { type: 'admin' }> => ({
  type: 'admin',
  userId: c.get('session').userId,
});
