import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import type { Body } from '../support/http.js';

/** Every customer's console sessions through the Application API: listed, shown and revoked. */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack({ CONSOLE_GATEWAY_URL: 'http://127.0.0.1:9/console' });
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.env.admin.call(method, `/api/application/cloudsvc/console/sessions${path}`, body);

async function open(instanceId: string): Promise<Body> {
  const res = await t.api('POST', `/${instanceId}/console/session`);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attributes;
}

describe('console sessions for administrators', () => {
  it('lists them newest first with filters, shows one, never with its token', async () => {
    const { id } = await t.instance();
    const older = await open(id);
    const newer = await open(id);
    await t.api('POST', `/${id}/console/sessions/${older.uuid}/revoke`);
    const all = await admin('GET', `?instance=${id}`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((s: Body) => s.attributes.uuid)).toEqual([newer.uuid, older.uuid]);
    expect(all.body.meta.pagination).toMatchObject({ total: 2 });
    const live = await admin('GET', `?instance=${id}&state=live`);
    expect(live.body.data.map((s: Body) => s.attributes.uuid)).toEqual([newer.uuid]);
    const ended = await admin('GET', `?instance=${id}&state=ended&user=${t.env.client.id}`);
    expect(ended.body.data.map((s: Body) => s.attributes.end_reason)).toEqual(['revoked']);
    expect((await admin('GET', `?user=${randomUUID()}`)).body.data).toEqual([]);
    const shown = await admin('GET', `/${newer.uuid}`);
    expect(shown.body).toMatchObject({
      object: 'console_session',
      attributes: { uuid: newer.uuid, state: 'pending' },
    });
    expect(JSON.stringify([all.body, shown.body])).not.toContain(newer.connect_token);
  });

  it('revokes any customer’s session, twice alike; an unknown one is 404; bad filters are 400', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    const [first, second] = [
      await admin('POST', `/${session.uuid}/revoke`),
      await admin('POST', `/${session.uuid}/revoke`),
    ];
    expect(first.status).toBe(200);
    expect(first.body.attributes).toMatchObject({ state: 'ended', end_reason: 'revoked' });
    expect(second.body).toEqual(first.body);
    expect((await admin('POST', `/${randomUUID()}/revoke`)).status).toBe(404);
    expect((await admin('GET', `/${randomUUID()}`)).status).toBe(404);
    for (const query of ['?state=paused', '?instance=nope', '?per_page=1000']) {
      const res = await admin('GET', query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors[0].code).toBe('SVC-REQ-400');
    }
  });

  it('refuses a client key (403) and no key (401)', async () => {
    expect((await t.env.client.call('GET', '/api/application/cloudsvc/console/sessions')).status).toBe(403);
    expect((await t.env.call(null, 'GET', '/api/application/cloudsvc/console/sessions')).status).toBe(401);
  });
});
