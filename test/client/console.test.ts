import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../domain/credentials.js';
import { createConsoleSession } from '../../services/console/sessions.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';

/**
 * Console sessions through the Client API, and the gateway's side of them through the internal
 * API: a connect token redeemed once, the relay reported, and every ending in the feed a gateway
 * follows, whatever ended the session.
 */
let t: BackupStack;
let gateway: string;
let otherGateway: string;
const MAX_LIVE = 3;
beforeAll(async () => {
  t = await startBackupStack({
    CONSOLE_GATEWAY_URL: 'http://127.0.0.1:9/console',
    MAX_CONSOLE_SESSIONS_PER_INSTANCE: String(MAX_LIVE),
  });
  gateway = await seed.gatewayCredential(t.env.db);
  otherGateway = await seed.gatewayCredential(t.env.db);
  // Where agents would reach them: nowhere here (the relay itself is test/console/'s).
  for (const token of [gateway, otherGateway])
    await internal(token, 'POST', 'heartbeat', { relay_url: 'ws://127.0.0.1:9/relay' });
});
afterAll(() => t.close());

const internal = (token: string, method: string, route: string, body?: unknown) =>
  t.env.call(token, method, `/api/application/cloudsvc/console/internal/${route}`, body);

async function open(instanceId: string, body?: unknown): Promise<Body> {
  const res = await t.api('POST', `/${instanceId}/console/session`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attributes;
}

const sessionRow = (id: string) =>
  t.env.db.selectFrom('console_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sessionCount = async (instanceId: string) =>
  (await t.env.db.selectFrom('console_sessions').select('id').where('instance_id', '=', instanceId).execute())
    .length;

/** Where the feed stands now, for a test to read what comes after. */
const feedCursor = async (): Promise<string> => (await internal(gateway, 'GET', 'revocations')).body.cursor;
const feedAfter = async (cursor: string): Promise<Body[]> =>
  (await internal(gateway, 'GET', `revocations?cursor=${cursor}`)).body.data;

describe('the console’s offer', () => {
  it('offers the serial console its hypervisor’s agent relays, not a graphical one; a stranger’s instance is the standard 404', async () => {
    const { id } = await t.instance();
    const res = await t.api('GET', `/${id}/console`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'console',
      attributes: { serial: true, graphical: false, kinds: ['serial'], session_ttl_seconds: 900 },
    });
    const foreign = await t.env.stranger.call('GET', `/api/client/cloud/${id}/console`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].code).toBe('SVC-RES-404');
  });
});

describe('creating sessions', () => {
  it('makes a pending serial session with a connect token shown once and kept as its hash only', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    expect(session).toMatchObject({
      instance: id,
      user: t.env.client.id,
      kind: 'serial',
      state: 'pending',
      gateway_url: 'http://127.0.0.1:9/console',
      connected_at: null,
      ended_at: null,
    });
    expect(session.connect_token).toMatch(/^cso_[A-Za-z0-9_-]{43}$/);
    const row = await sessionRow(session.uuid);
    expect(row.connect_token_hash).toBe(hashToken(session.connect_token));
    expect(JSON.stringify(row)).not.toContain(session.connect_token);
    const shown = await t.env.admin.call('GET', `/api/application/cloudsvc/console/sessions/${session.uuid}`);
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).not.toContain(session.connect_token);
    expect(shown.body.attributes).not.toHaveProperty('connect_token');
  });

  it('refuses a graphical session, an unknown kind, an unknown field and a stranger, changing nothing', async () => {
    const { id } = await t.instance();
    const before = await sessionCount(id);
    const graphical = await t.api('POST', `/${id}/console/session`, { kind: 'graphical' });
    expect(graphical.status).toBe(409);
    expect(graphical.body.errors[0]).toMatchObject({ code: 'SVC-CONFLICT-409' });
    for (const body of [{ kind: 'vnc' }, { kind: 'serial', user: randomUUID() }]) {
      const res = await t.api('POST', `/${id}/console/session`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].code).toBe('SVC-REQ-400');
    }
    const foreign = await t.env.stranger.call('POST', `/api/client/cloud/${id}/console/session`);
    expect(foreign.status).toBe(404);
    expect(await sessionCount(id)).toBe(before);
  });

  it(`holds at most ${MAX_LIVE} live sessions per instance, asked one by one or all at once; a revoked one frees its place`, async () => {
    const { id } = await t.instance();
    const answers = await Promise.all(
      Array.from({ length: MAX_LIVE + 2 }, () => t.api('POST', `/${id}/console/session`)),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_LIVE);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('SVC-QUOTA-409');
    }
    const first = answers.find((a) => a.status === 201)!.body.attributes;
    expect((await t.api('POST', `/${id}/console/sessions/${first.uuid}/revoke`)).status).toBe(200);
    await open(id);
  });

  it('is refused while no console gateway is configured (503), and nothing is made', async () => {
    const { id } = await t.instance();
    const before = await sessionCount(id);
    const deps = { ...t.env.deps, config: { ...t.env.deps.config, CONSOLE_GATEWAY_URL: undefined } };
    await expect(
      createConsoleSession(
        deps,
        { type: 'user', userId: t.env.client.id },
        { instanceId: id, kind: 'serial' },
      ),
    ).rejects.toMatchObject({ code: 'SVC-CONFIG-503' });
    expect(await sessionCount(id)).toBe(before);
  });
});

describe('the gateway redeems and relays', () => {
  it('redeems a connect token once; a replay, a token past its time and one of a revoked session are refused alike', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    const grant = await internal(gateway, 'POST', 'validate', { connect_token: session.connect_token });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    expect(grant.body).toEqual({
      object: 'console_grant',
      attributes: {
        session: session.uuid,
        instance: id,
        user: t.env.client.id,
        kind: 'serial',
        expires_at: session.expires_at,
        stream_token: expect.stringMatching(/^css_[A-Za-z0-9_-]{43}$/),
      },
    });
    expect(JSON.stringify(grant.body)).not.toContain(session.connect_token);
    expect((await sessionRow(session.uuid)).state).toBe('validated');

    const late = await open(id);
    await t.env.db
      .updateTable('console_sessions')
      .set({ connect_by: new Date(Date.now() - 1000) })
      .where('id', '=', late.uuid)
      .execute();
    const revoked = await open(id);
    expect((await t.api('POST', `/${id}/console/sessions/${revoked.uuid}/revoke`)).status).toBe(200);
    for (const token of [session.connect_token, late.connect_token, revoked.connect_token, 'cso_unknown']) {
      for (const who of [gateway, otherGateway]) {
        const refused = await internal(who, 'POST', 'validate', { connect_token: token });
        expect(refused.status).toBe(401);
        expect(refused.body.errors[0].code).toBe('SVC-CONSOLE-401');
      }
    }
    expect((await sessionRow(session.uuid)).gateway_credential_id).not.toBeNull();
  });

  it('refuses a gateway that has not said where agents reach it, before the token is spent', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    const silent = await seed.gatewayCredential(t.env.db);
    const refused = await internal(silent, 'POST', 'validate', { connect_token: session.connect_token });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('SVC-CONFLICT-409');
    expect((await sessionRow(session.uuid)).state).toBe('pending');
    expect(
      (await internal(gateway, 'POST', 'validate', { connect_token: session.connect_token })).status,
    ).toBe(200);
  });

  it('two gateways redeeming one token at once: one gets the session', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    const answers = await Promise.all(
      [gateway, otherGateway, gateway].map((who) =>
        internal(who, 'POST', 'validate', { connect_token: session.connect_token }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
  });

  it('reports the relay connected, then disconnected, which ends the session; another gateway may report neither', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    await internal(gateway, 'POST', 'validate', { connect_token: session.connect_token });
    const stranger = await internal(otherGateway, 'POST', 'session-state', {
      session: session.uuid,
      state: 'connected',
    });
    expect(stranger.status).toBe(409);
    for (const round of [1, 2]) {
      const connected = await internal(gateway, 'POST', 'session-state', {
        session: session.uuid,
        state: 'connected',
      });
      expect(connected.status, `round ${round}`).toBe(200);
      expect(connected.body.attributes).toMatchObject({
        state: 'connected',
        connected_at: expect.any(String),
      });
    }
    const cursor = await feedCursor();
    const gone = await internal(gateway, 'POST', 'session-state', {
      session: session.uuid,
      state: 'disconnected',
    });
    expect(gone.body.attributes).toMatchObject({ state: 'ended', end_reason: 'disconnected' });
    expect(await feedAfter(cursor)).toEqual([
      { session: session.uuid, reason: 'disconnected', ended_at: gone.body.attributes.ended_at },
    ]);
    const again = await internal(gateway, 'POST', 'session-state', {
      session: session.uuid,
      state: 'connected',
    });
    expect(again.status).toBe(409);
    const bad = await internal(gateway, 'POST', 'session-state', { session: session.uuid, state: 'paused' });
    expect(bad.status).toBe(400);
  });
});

describe('every ending reaches the feed', () => {
  it('a revoke, twice alike and twice at once, ends the session once; a stranger’s revoke is the standard 404', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    const cursor = await feedCursor();
    const foreign = await t.env.stranger.call(
      'POST',
      `/api/client/cloud/${id}/console/sessions/${session.uuid}/revoke`,
    );
    expect(foreign.status).toBe(404);
    const unknown = await t.api('POST', `/${id}/console/sessions/${randomUUID()}/revoke`);
    expect(unknown.status).toBe(404);
    const [a, b] = await Promise.all([
      t.api('POST', `/${id}/console/sessions/${session.uuid}/revoke`),
      t.api('POST', `/${id}/console/sessions/${session.uuid}/revoke`),
    ]);
    const c = await t.api('POST', `/${id}/console/sessions/${session.uuid}/revoke`);
    for (const res of [a, b, c]) {
      expect(res.status).toBe(200);
      expect(res.body.attributes).toMatchObject({ state: 'ended', end_reason: 'revoked' });
      expect(res.body.attributes.ended_at).toBe(a.body.attributes.ended_at);
    }
    expect((await feedAfter(cursor)).map((e) => [e.session, e.reason])).toEqual([[session.uuid, 'revoked']]);
  });

  it('a session past its time ends expired, a held one whose gateway stopped heartbeating ends gateway_lost, and the heartbeat names the held ones ended', async () => {
    const { id } = await t.instance();
    const [expiring, held, lost] = [await open(id), await open(id), await open(id)];
    for (const s of [held, lost])
      await internal(gateway, 'POST', 'validate', { connect_token: s.connect_token });
    const cursor = await feedCursor();
    await t.env.db
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.uuid)
      .execute();
    await t.env.db
      .updateTable('console_sessions')
      .set({ last_heartbeat_at: new Date(Date.now() - 60_000) })
      .where('id', 'in', [held.uuid, lost.uuid])
      .execute();
    // The heartbeat keeps what it names alive; the one it no longer names is lost.
    const beat = await internal(gateway, 'POST', 'heartbeat', { sessions: [held.uuid, expiring.uuid] });
    expect(beat.status).toBe(200);
    expect(beat.body.attributes.ended_sessions).toEqual([{ session: expiring.uuid, reason: 'expired' }]);
    const endings = await feedAfter(cursor);
    expect(Object.fromEntries(endings.map((e) => [e.session, e.reason]))).toEqual({
      [expiring.uuid]: 'expired',
      [lost.uuid]: 'gateway_lost',
    });
    expect((await sessionRow(held.uuid)).state).toBe('validated');
    const next = await internal(gateway, 'POST', 'heartbeat', { sessions: [held.uuid, lost.uuid] });
    expect(next.body.attributes.ended_sessions).toEqual([{ session: lost.uuid, reason: 'gateway_lost' }]);
  });

  it('deleting the instance ends its sessions (instance_deleted)', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    const cursor = await feedCursor();
    expect((await t.api('DELETE', `/${id}`)).status).toBe(202);
    expect(await feedAfter(cursor)).toEqual([
      expect.objectContaining({ session: session.uuid, reason: 'instance_deleted' }),
    ]);
  });

  it('a migration’s commit ends its sessions (instance_migrated): the console was the source’s', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    const source = t.hosts.find((h) => h.agent.hypervisor().instances[id])!;
    const target = t.hosts.find((h) => h !== source)!;
    const cursor = await feedCursor();
    const moved = await t.env.admin.call('POST', `/admin/cloudsvc/instances/${id}/migrations`, {
      target_hypervisor_uuid: target.hypervisor.id,
      mode: 'COLD',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(202);
    const endings = await eventually(
      async () => {
        const found = await feedAfter(cursor);
        return found.length > 0 ? found : undefined;
      },
      30_000,
      'the session to end',
    );
    expect(endings).toEqual([
      expect.objectContaining({ session: session.uuid, reason: 'instance_migrated' }),
    ]);
    expect(await t.settled(id, 'running')).toBeDefined();
  });

  it('without a cursor the feed gives only where to follow from; a malformed cursor is 400', async () => {
    const start = await internal(gateway, 'GET', 'revocations');
    expect(start.status).toBe(200);
    expect(start.body).toEqual({
      object: 'console_revocations',
      data: [],
      cursor: expect.stringMatching(/^[0-9]+$/),
    });
    expect((await internal(gateway, 'GET', 'revocations?cursor=abc')).status).toBe(400);
  });
});

describe('the console page', () => {
  it('serves the page with a policy that connects only to the gateway, xterm.js from its package, and 404s a malformed id', async () => {
    const { id } = await t.instance();
    const session = await open(id);
    expect(session.console_url).toBe(`/console/${session.uuid}#${session.connect_token}`);
    const res = await t.env.call(null, 'GET', `/console/${session.uuid}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain('connect-src ws://127.0.0.1:9');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toContain('data-gateway="http://127.0.0.1:9/console"');
    expect(res.body).not.toContain(session.connect_token);
    const xterm = await t.env.call(null, 'GET', '/console/assets/xterm.js');
    expect(xterm.status).toBe(200);
    expect(xterm.headers.get('content-type')).toContain('javascript');
    expect((await t.env.call(null, 'GET', '/console/not-a-uuid')).status).toBe(404);
    expect((await t.env.call(null, 'GET', '/console/assets/secrets.json')).status).toBe(404);
    // A name every object has (`constructor`, `toString`) is no asset either.
    for (const name of ['constructor', 'toString', '__proto__'])
      expect((await t.env.call(null, 'GET', `/console/assets/${name}`)).status, name).toBe(404);
  });
});

describe('the internal API’s door', () => {
  it('refuses customer and administrator keys (403) and no credential (401)', async () => {
    for (const route of ['heartbeat', 'validate', 'session-state']) {
      for (const key of [t.env.client.key, t.env.admin.key])
        expect((await internal(key, 'POST', route, {})).status, route).toBe(403);
      expect(
        (await t.env.call(null, 'POST', `/api/application/cloudsvc/console/internal/${route}`, {})).status,
      ).toBe(401);
    }
    expect((await internal(t.env.client.key, 'GET', 'revocations')).status).toBe(403);
  });
});
