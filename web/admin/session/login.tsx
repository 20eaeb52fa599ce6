import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  ADMIN_LOGIN_COOKIE,
  ADMIN_SESSION_COOKIE,
  issueLoginNonce,
  sameSecret,
} from '../../../domain/admin-sessions.js';
import { ApiError } from '../../../domain/errors.js';
import { clientIp } from '../../../http/client-ip.js';
import { openAdminSession } from '../../../services/admin-sessions/open.js';
import { resolveAdminSession } from '../../../services/admin-sessions/resolve.js';
import type { PageEnv } from '../context.js';
import { acceptsHtml, fromThisSite } from '../http.js';
import { Notice } from '../layout/page.js';
import { pageAfterLogin, pages, routes } from '../paths.js';
import { type PageStatus, renderPage } from '../render.js';
import { clearLoginCookie, setLoginCookie, setSessionCookie } from './cookies.js';
import { formFields, limitForm } from './forms.js';

const LOGIN_NOTES = {
  logged_out: 'You are logged out.',
  ended: 'Your session has ended. Sign in again.',
} as const;

/** The login form, bound to this browser by a fresh double-submit value. */
function loginForm(c: Context<PageEnv>, next: string, problem?: ApiError, status: PageStatus = 200) {
  const nonce = issueLoginNonce();
  setLoginCookie(c, nonce);
  const note = LOGIN_NOTES[c.req.query('note') as keyof typeof LOGIN_NOTES];
  return renderPage(
    c,
    'Sign in',
    <>
      <h1>Sign in</h1>
      {note && !problem && <Notice kind="info">{note}</Notice>}
      {problem && (
        <Notice kind="error">
          {problem.detail} <span class="mono">({problem.code})</span>
        </Notice>
      )}
      <form method="post" action={pages.login} class="panel">
        <p>
          Sign in with your administrator’s application key (<span class="mono">csa_…</span>, from{' '}
          <span class="mono">cloudsvc keys:create</span>). The pages keep a session; the key is not stored in
          the browser.
        </p>
        <label for="key">Application key</label>
        <input
          id="key"
          name="key"
          type="password"
          autocomplete="off"
          required
          size={60}
          aria-describedby="key-help"
        />
        <p id="key-help" class="detail">
          A client key never opens these pages.
        </p>
        <input type="hidden" name="csrf" value={nonce} />
        <input type="hidden" name="next" value={next} />
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
    </>,
    status,
  );
}

/**
 * `GET /login`, `POST /login` (docs/admin-pages.md "Signing in"). The form is refused unless it
 * carries the value of its own cookie, so no other site can sign a browser in to an account of
 * its choosing; a signed-in administrator goes straight on.
 */
export function register(app: Hono<PageEnv>): void {
  app.get(routes.login, async (c) => {
    const next = pageAfterLogin(c.req.query('next'));
    const token = getCookie(c, ADMIN_SESSION_COOKIE);
    if (token && (await resolveAdminSession(c.get('deps'), token))) return c.redirect(next, 303);
    return loginForm(c, next);
  });

  app.post(routes.login, limitForm, async (c) => {
    const fields = await formFields(c);
    const next = pageAfterLogin(fields.next);
    if (!fromThisSite(c) || !sameSecret(getCookie(c, ADMIN_LOGIN_COOKIE) ?? '', fields.csrf)) {
      if (!acceptsHtml(c)) throw new ApiError('SVC-CSRF-403');
      return loginForm(c, next, new ApiError('SVC-CSRF-403'), 403);
    }
    try {
      const opened = await openAdminSession(c.get('deps'), { key: fields.key ?? '', clientIp: clientIp(c) });
      setSessionCookie(c, opened.token, opened.expiresAt);
      clearLoginCookie(c);
      return c.redirect(next, 303);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || !acceptsHtml(c)) throw error;
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return loginForm(c, next, error, error.status as PageStatus);
    }
  });
}
