import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { type Browser, chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { loadGatewayConfig } from '../../console-gateway/config.js';
import { startGateway } from '../../console-gateway/server.js';
import { createLogger } from '../../platform/logger.js';
import { freePort } from '../../platform/ports.js';
import { eventually } from '../support/eventually.js';
import { type QemuHost, qemuHosts, ticksPast } from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A real guest's serial console through the reference gateway: typed into its shell from a
 * WebSocket client playing the browser, its answer read back, the console still logged, and the
 * session cut by a revoke.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/console skipped: ${missing}`);

describe.runIf(!missing)('the console of a QEMU guest', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    env = await startStack({ agents: true, config: { CONSOLE_GATEWAY_URL: 'ws://127.0.0.1:9/connect' } });
    hosts = qemuHosts(env);
    gateway = await startGateway(
      loadGatewayConfig({
        GATEWAY_PANEL_URL: env.url,
        GATEWAY_CREDENTIAL: await seed.gatewayCredential(env.db),
        GATEWAY_PORT: '0',
        GATEWAY_FEED_MS: '250',
      }),
      createLogger('silent', { service: 'console-gateway' }),
    );
  });
  afterAll(async () => {
    await gateway?.close();
    hosts?.killGuests();
    await env?.close();
  });

  it('types into the guest’s shell and reads its answer; a revoke cuts it', async () => {
    const location = await seed.location(env.db);
    const host: QemuHost = await hosts.host(location.id);
    const instance = await hosts.instanceOn(host);
    await ticksPast(host, instance.id, 2);
    expect(await host.reportedCapabilities()).toContain('console_serial');

    const made = await env.client.call('POST', `/api/client/cloud/${instance.id}/console/session`);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const socket = new WebSocket(gateway.url);
    let screen = '';
    const news: { type: string; reason?: string }[] = [];
    socket.on('message', (data: Buffer, binary: boolean) => {
      if (binary) screen += data.toString();
      else news.push(JSON.parse(data.toString()));
    });
    const closed = once(socket, 'close');
    await once(socket, 'open');
    socket.send(JSON.stringify({ connect_token: made.body.attributes.connect_token }));
    await eventually(() => news.some((n) => n.type === 'connected') || undefined, 30_000, 'the console');

    // The shell computes it: the answer is on the screen only if the guest ran the command.
    socket.send(Buffer.from('echo cloudsvc-$((6*7))\n'), { binary: true });
    await eventually(
      () => screen.includes('cloudsvc-42') || undefined,
      30_000,
      `the shell's answer; the screen: ${screen.slice(-300)}`,
    );
    // The console goes on being logged for the agent's own reading (the ticks).
    const before = Math.max(...host.ticks(instance.id));
    await ticksPast(host, instance.id, before + 1);

    expect(
      (
        await env.client.call(
          'POST',
          `/api/client/cloud/${instance.id}/console/sessions/${made.body.attributes.uuid}/revoke`,
        )
      ).status,
    ).toBe(200);
    await closed;
    expect(news.at(-1)).toEqual({ type: 'ended', reason: 'revoked' });
  }, 240_000);
});

const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
if (!chromium) console.warn('test/qemu/console (browser) skipped: no chromium (apt-get install chromium)');

describe.runIf(!missing && chromium)('the console page in a browser', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let browser: Browser;
  beforeAll(async () => {
    // The page's gateway is the API's CONSOLE_GATEWAY_URL: the gateway takes a port chosen first.
    const port = await freePort();
    env = await startStack({
      agents: true,
      config: { CONSOLE_GATEWAY_URL: `ws://127.0.0.1:${port}/connect` },
    });
    hosts = qemuHosts(env);
    gateway = await startGateway(
      loadGatewayConfig({
        GATEWAY_PANEL_URL: env.url,
        GATEWAY_CREDENTIAL: await seed.gatewayCredential(env.db),
        GATEWAY_PORT: String(port),
        GATEWAY_FEED_MS: '250',
      }),
      createLogger('silent', { service: 'console-gateway' }),
    );
    browser = await playwright.launch({ executablePath: chromium, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    hosts?.killGuests();
    await env?.close();
  });

  it('opens the console page, types into the guest’s shell and sees its answer; revoked, the page says the session ended', async () => {
    const location = await seed.location(env.db);
    const host = await hosts.host(location.id);
    const instance = await hosts.instanceOn(host);
    await ticksPast(host, instance.id, 2);
    const made = await env.client.call('POST', `/api/client/cloud/${instance.id}/console/session`);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const page = await browser.newPage();
    await page.goto(`${env.url}${made.body.attributes.console_url}`);
    // The token leaves the address bar at once.
    expect(new URL(page.url()).hash).toBe('');
    await page.locator('#status[data-state="connected"]').waitFor({ timeout: 30_000 });
    await page.locator('.xterm').click();
    await page.keyboard.type('echo cloudsvc-$((6*7))');
    await page.keyboard.press('Enter');
    await page.locator('.xterm-rows', { hasText: 'cloudsvc-42' }).waitFor({ timeout: 30_000 });

    const revoked = await env.client.call(
      'POST',
      `/api/client/cloud/${instance.id}/console/sessions/${made.body.attributes.uuid}/revoke`,
    );
    expect(revoked.status).toBe(200);
    await page.locator('#status[data-state="ended"]').waitFor({ timeout: 5_000 });
    expect(await page.locator('#status').textContent()).toBe('Session ended: revoked');
  }, 240_000);
});
