import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeCredential } from '../../db/repositories/accounts/keys.js';
import { hashToken } from '../../domain/credentials.js';
import { pageBrowser } from '../support/pages.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;

beforeAll(async () => {
  env = await startStack({ config: { ADMIN_LOGIN_RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY_HOPS: '1' } });
});
afterAll(() => env.close());

const LIST = '/admin/cloudsvc/migrations';
const browser = () => pageBrowser((path, init) => env.app.request(path, init));

/** A new administrator's application key: each test signs in as its own. */
async function adminKey() {
  const user = await seed.user(env.db, { admin: true });
  return { userId: user.id, key: await seed.key(env.db, user.id, 'application') };
}

const sessionOf = (userId: string) =>
  env.db
    .selectFrom('admin_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();

describe('signing in to the admin pages', () => {
  it('sends a browser without a session to the login page, and brings it back after', async () => {
    const b = browser();
    const page = await b.get(`${LIST}?state=COMPLETED`);
    expect(page.status).toBe(303);
    expect(page.location).toBe(`/admin/cloudsvc/login?next=${encodeURIComponent(`${LIST}?state=COMPLETED`)}`);
    const { key } = await adminKey();
    const login = await b.login(key, `${LIST}?state=COMPLETED`);
    expect(login.status).toBe(303);
    expect(login.location).toBe(`${LIST}?state=COMPLETED`);
    const list = await b.get(login.location!);
    expect(list.status).toBe(200);
    expect(list.html).toContain('<h1>Migrations</h1>');
  });

  it('sets an HttpOnly, SameSite=Lax cookie for the pages only, Secure when the browser came over TLS', async () => {
    const { key } = await adminKey();
    const plain = await browser().login(key);
    const cookie = plain.headers.getSetCookie().find((c) => c.startsWith('cloudsvc_admin_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/admin\/cloudsvc/);
    expect(cookie).not.toMatch(/Secure/);

    const b = browser();
    await b.get('/admin/cloudsvc/login', { 'X-Forwarded-Proto': 'https' });
    const tls = await b.post(
      '/admin/cloudsvc/login',
      { key, csrf: b.csrf() },
      { 'X-Forwarded-Proto': 'https' },
    );
    expect(tls.headers.getSetCookie().find((c) => c.startsWith('cloudsvc_admin_session='))).toMatch(/Secure/);
  });

  it('stores only the hash of the session token, and records the login', async () => {
    const { userId, key } = await adminKey();
    const b = browser();
    await b.login(key);
    const token = b.cookies.get('cloudsvc_admin_session')!;
    const [session] = await sessionOf(userId);
    expect(session!.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(session)).not.toContain(token);
    const logged = await env.db
      .selectFrom('activity_log')
      .select('event')
      .where('user_id', '=', userId)
      .execute();
    expect(logged.map((l) => l.event)).toContain('admin.session_opened');
  });

  it('refuses a client key with 403, and an unknown key with 401, opening no session', async () => {
    const b = browser();
    const client = await b.login(env.client.key);
    expect(client.status).toBe(403);
    expect(client.html).toContain('SVC-ADMIN-LOGIN-403');
    const unknown = await b.login('csa_not-a-key-at-all');
    expect(unknown.status).toBe(401);
    expect(unknown.html).toContain('SVC-ADMIN-LOGIN-401');
    expect(b.cookies.has('cloudsvc_admin_session')).toBe(false);
    expect((await b.get(LIST)).status).toBe(303);
  });

  it('refuses a login form that lacks its own cookie’s value (login CSRF), or came from another site', async () => {
    const { userId, key } = await adminKey();
    const b = browser();
    await b.get('/admin/cloudsvc/login');
    const forged = await b.post('/admin/cloudsvc/login', { key, csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('SVC-CSRF-403');
    const elsewhere = await b.post(
      '/admin/cloudsvc/login',
      { key, csrf: b.csrf() },
      { Origin: 'https://evil.example' },
    );
    expect(elsewhere.status).toBe(403);
    expect(await sessionOf(userId)).toEqual([]);
  });

  it('refuses a login that is not a URL-encoded form with 415, opening nothing', async () => {
    for (const [type, body, status] of [
      ['multipart/form-data; boundary=x', 'junk', 415],
      ['application/json', '{"key":"x"}', 415],
      ['text/plain', 'key=x', 415],
    ] as const) {
      const answer = await env.app.request('/admin/cloudsvc/login', {
        method: 'POST',
        headers: { 'Content-Type': type, Accept: 'text/html' },
        body,
      });
      expect(answer.status, type).toBe(status);
      expect(answer.headers.getSetCookie().some((c) => c.startsWith('cloudsvc_admin_session='))).toBe(false);
    }
  });

  it('never sends the browser elsewhere after signing in', async () => {
    const { key } = await adminKey();
    for (const next of [
      '//evil.example/x',
      'https://evil.example',
      '/admin/cloudsvc//evil.example',
      '/other',
    ]) {
      const login = await browser().login(key, next);
      expect(login.location, next).toBe(LIST);
    }
  });

  it('counts failures per address and refuses past the limit with 429', async () => {
    const b = browser();
    const ip = { 'X-Forwarded-For': '198.51.100.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      await b.get('/admin/cloudsvc/login', ip);
      statuses.push((await b.post('/admin/cloudsvc/login', { key: 'csa_wrong', csrf: b.csrf() }, ip)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('opens two sessions for two logins, one after the other and two at once', async () => {
    const { userId, key } = await adminKey();
    const [a, b, c] = [browser(), browser(), browser()];
    await a.login(key);
    await Promise.all([b.login(key), c.login(key)]);
    expect(await sessionOf(userId)).toHaveLength(3);
    for (const each of [a, b, c]) expect((await each.get(LIST)).status).toBe(200);
  });
});

describe('a session', () => {
  async function signedIn() {
    const who = await adminKey();
    const b = browser();
    await b.login(who.key);
    return { ...who, b };
  }

  it('ends at logout: the cookie opens nothing after, and a second logout finds no session', async () => {
    const { userId, b } = await signedIn();
    const token = b.cookies.get('cloudsvc_admin_session')!;
    await b.get(LIST);
    const out = await b.post('/admin/cloudsvc/logout', { csrf: b.csrf() });
    expect(out.status).toBe(303);
    expect(out.location).toBe('/admin/cloudsvc/login?note=logged_out');
    expect(b.cookies.has('cloudsvc_admin_session')).toBe(false);
    const [session] = await sessionOf(userId);
    expect(session!.ended_at).not.toBeNull();
    // The old cookie, replayed, is refused.
    b.cookies.set('cloudsvc_admin_session', token);
    expect((await b.get(LIST)).status).toBe(303);
    const again = await b.post('/admin/cloudsvc/logout', { csrf: 'whatever' });
    expect(again.status).toBe(303);
    expect(again.location).toMatch(/^\/admin\/cloudsvc\/login/);
  });

  it('refuses a logout without the form token, and stays open', async () => {
    const { userId, b } = await signedIn();
    const refused = await b.post('/admin/cloudsvc/logout', { csrf: 'nope' });
    expect(refused.status).toBe(403);
    expect((await sessionOf(userId))[0]!.ended_at).toBeNull();
    expect((await b.get(LIST)).status).toBe(200);
  });

  it('refuses a form token of another session', async () => {
    const one = await signedIn();
    const two = await signedIn();
    await one.b.get(LIST);
    const refused = await two.b.post('/admin/cloudsvc/logout', { csrf: one.b.csrf() });
    expect(refused.status).toBe(403);
  });

  it('ends when its key is revoked, when it was idle too long, and when its time is up', async () => {
    const revoked = await signedIn();
    const [credential] = await sessionOf(revoked.userId);
    await revokeCredential(env.db, credential!.credential_id);
    expect((await revoked.b.get(LIST)).status).toBe(303);

    const idle = await signedIn();
    await env.db
      .updateTable('admin_sessions')
      .set({ last_seen_at: sql`now() - interval '2 hours'` })
      .where('user_id', '=', idle.userId)
      .execute();
    expect((await idle.b.get(LIST)).status).toBe(303);

    const old = await signedIn();
    await env.db
      .updateTable('admin_sessions')
      .set({ created_at: sql`now() - interval '10 hours'`, expires_at: sql`now() - interval '1 second'` })
      .where('user_id', '=', old.userId)
      .execute();
    expect((await old.b.get(LIST)).status).toBe(303);
  });

  it('tells a live refresh that the session ended with 401, not the login page', async () => {
    const b = browser();
    const part = await b.get(`${LIST}?part=live`, { 'X-Live-Refresh': '1' });
    expect(part.status).toBe(401);
  });
});

describe('the pages’ assets', () => {
  it('serves the style sheet and the script to anyone, and nothing else', async () => {
    const b = browser();
    const css = await b.get('/admin/cloudsvc/assets/admin.css');
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
    const js = await b.get('/admin/cloudsvc/assets/live.js');
    expect([js.status, js.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    for (const name of ['secrets.json', 'constructor', 'toString', '__proto__'])
      expect((await b.get(`/admin/cloudsvc/assets/${name}`)).status, name).toBe(404);
  });
});

describe('the admin API on the same paths', () => {
  it('answers a credential, or a caller that does not ask for HTML, as before', async () => {
    const listed = await env.call(env.admin, 'GET', LIST);
    expect(listed.status).toBe(200);
    expect(listed.body.object).toBe('list');
    const none = await env.call(null, 'GET', LIST);
    expect(none.status).toBe(401);
    const html = await env.call(env.client, 'GET', LIST, undefined, { Accept: 'text/html' });
    expect(html.status).toBe(403);
    expect(html.body.errors[0].code).toBe('SVC-AUTH-403');
  });

  it('never accepts a session cookie in place of a key', async () => {
    const { key } = await adminKey();
    const b = browser();
    await b.login(key);
    const answer = await env.call(null, 'GET', LIST, undefined, {
      Cookie: `cloudsvc_admin_session=${b.cookies.get('cloudsvc_admin_session')}`,
    });
    expect(answer.status).toBe(401);
  });
});
