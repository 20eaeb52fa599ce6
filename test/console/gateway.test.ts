import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadGatewayConfig } from '../../console-gateway/config.js';
import { startGateway } from '../../console-gateway/server.js';
import { consoleStreamWorkflowId } from '../../domain/workflow-ids.js';
import { createLogger } from '../../platform/logger.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';

/**
 * The reference console gateway between a browser (a WebSocket client here) and a simulated
 * instance's console, through the panel: the connect token redeemed once, the agent's stream
 * paired by its stream token, bytes both ways, and the session cut when it ends.
 */
let t: BackupStack;
let gateway: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  t = await startBackupStack({ CONSOLE_GATEWAY_URL: 'ws://127.0.0.1:9/connect' });
  gateway = await startGateway(
    loadGatewayConfig({
      GATEWAY_PANEL_URL: t.env.url,
      GATEWAY_CREDENTIAL: await seed.gatewayCredential(t.env.db),
      GATEWAY_PORT: '0',
      GATEWAY_FEED_MS: '200',
      GATEWAY_HEARTBEAT_MS: '1000',
      GATEWAY_STREAM_WAIT_MS: '5000',
    }),
    createLogger('silent', { service: 'console-gateway' }),
  );
});
afterAll(async () => {
  await gateway?.close();
  await t?.close();
});

/** A browser at the gateway: what it was told (text frames) and shown (binary frames), and its close. */
function browser(connectToken: string) {
  const socket = new WebSocket(gateway.url);
  const news: Body[] = [];
  let screen = '';
  const closed = once(socket, 'close').then(([code, reason]) => ({ code, reason: String(reason) }));
  socket.on('message', (data: Buffer, binary: boolean) => {
    if (binary) screen += data.toString();
    else news.push(JSON.parse(data.toString()));
  });
  socket.once('open', () => socket.send(JSON.stringify({ connect_token: connectToken })));
  return {
    news,
    screen: () => screen,
    type: (text: string) => socket.send(Buffer.from(text), { binary: true }),
    closed,
    close: () => socket.close(),
  };
}

async function session(): Promise<{ instanceId: string; session: Body }> {
  const { id } = await t.instance();
  const res = await t.api('POST', `/${id}/console/session`);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { instanceId: id, session: res.body.attributes };
}

const connected = (b: ReturnType<typeof browser>) =>
  eventually(() => (b.news.some((n) => n.type === 'connected') ? true : undefined), 15_000, 'the console');

const stateOf = async (id: string) =>
  await t.env.db
    .selectFrom('console_sessions')
    .select(['state', 'end_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('the console gateway', () => {
  it('relays the simulated console: its banner, then what is typed echoed back; the session is connected', async () => {
    const { session: s } = await session();
    const b = browser(s.connect_token);
    await connected(b);
    expect(b.news[0]).toMatchObject({ type: 'validated', session: s.uuid });
    await eventually(
      () => (b.screen().includes('simulated console of web-') ? true : undefined),
      5_000,
      'the banner',
    );
    b.type('echo hello\r');
    await eventually(() => (b.screen().includes('echo hello\r') ? true : undefined), 5_000, 'the echo');
    expect(await stateOf(s.uuid)).toEqual({ state: 'connected', end_reason: null });
    // The stream token went to the agent sealed: the run's history holds no trace of it.
    const { stream_token } = gateway.relays.get(s.uuid)!.grant;
    const history = await t.env.temporal.workflow.getHandle(consoleStreamWorkflowId(s.uuid)).fetchHistory();
    // Every payload of the history, decoded.
    const recorded = [...JSON.stringify(history).matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)]
      .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
      .join('\n');
    expect(recorded).toContain('console.open');
    for (const secret of [stream_token, s.connect_token]) expect(recorded).not.toContain(secret.slice(4));
    b.close();
    await eventually(
      async () => ((await stateOf(s.uuid)).state === 'ended' ? true : undefined),
      5_000,
      'the end',
    );
    expect(await stateOf(s.uuid)).toEqual({ state: 'ended', end_reason: 'disconnected' });
  });

  it('cuts a live console within two seconds of its revoke, saying why', async () => {
    const { instanceId, session: s } = await session();
    const b = browser(s.connect_token);
    await connected(b);
    const revokedAt = Date.now();
    expect((await t.api('POST', `/${instanceId}/console/sessions/${s.uuid}/revoke`)).status).toBe(200);
    const { code } = await b.closed;
    expect(Date.now() - revokedAt).toBeLessThan(2_000);
    expect(code).toBe(4000);
    expect(b.news.at(-1)).toEqual({ type: 'ended', reason: 'revoked' });
    expect(gateway.relays.get(s.uuid)).toBeUndefined();
    expect(await stateOf(s.uuid)).toEqual({ state: 'ended', end_reason: 'revoked' });
  });

  it('refuses a replayed connect token and an unknown one; an agent without the stream token gets nothing', async () => {
    const { session: s } = await session();
    const first = browser(s.connect_token);
    await connected(first);
    for (const token of [s.connect_token, 'cso_unknown']) {
      const again = browser(token);
      expect((await again.closed).code).toBe(4401);
      expect(again.news).toEqual([{ type: 'ended', reason: 'refused' }]);
    }
    const intruder = new WebSocket(gateway.relayUrl, {
      headers: { Authorization: 'Bearer css_guess', 'X-Console-Session': s.uuid },
    });
    const [, response] = await once(intruder, 'unexpected-response');
    expect(response.statusCode).toBe(401);
    first.close();
  });
});
