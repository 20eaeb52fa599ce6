import type { Hono } from 'hono';
import { closeAdminSession } from '../../../services/admin-sessions/close.js';
import type { PageEnv } from '../context.js';
import { pages, routes } from '../paths.js';
import { clearSessionCookie } from './cookies.js';
import { limitForm, sessionForm } from './forms.js';
import { signedIn } from './guard.js';

/** `POST /logout`: the session ends in the database, so its cookie opens nothing anywhere. */
export function register(app: Hono<PageEnv>): void {
  app.post(routes.logout, limitForm, signedIn, async (c) => {
    await sessionForm(c);
    await closeAdminSession(c.get('deps'), c.get('session'));
    clearSessionCookie(c);
    return c.redirect(`${pages.login}?note=logged_out`, 303);
  });
}
