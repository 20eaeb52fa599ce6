import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';

/**
 * An instance's ISO library through the Client API: the agent of its hypervisor fetches each ISO
 * (for real, from a server of the test's own on loopback, which this stack's provider allows).
 */
const ISO = randomBytes(2 * 1024 * 1024);
let t: BackupStack;
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/a.iso') return res.end(ISO);
    if (req.url === '/moved') return res.writeHead(301, { location: '/a.iso' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startBackupStack({
    ISO_ALLOW_HTTP: 'true',
    ISO_ALLOWED_NETWORKS: '127.0.0.0/8',
    MAX_ISOS_PER_INSTANCE: '3',
  });
});
afterAll(async () => {
  server.close();
  await t?.close();
});

const add = (instanceId: string, body: Body) => t.api('POST', `/${instanceId}/media/iso`, body);
const library = async (instanceId: string): Promise<Body[]> =>
  (await t.api('GET', `/${instanceId}/media/iso`)).body.data.map((d: Body) => d.attributes);
const settledIso = (instanceId: string, isoId: string) =>
  eventually(
    async () => (await library(instanceId)).find((i) => i.uuid === isoId && i.state !== 'fetching'),
    20_000,
    'the ISO fetch to end',
  );

describe('the ISO library', () => {
  it('fetches an ISO on the instance’s hypervisor: available with what arrived; a second of the name is refused', async () => {
    const { id } = await t.instance();
    const res = await add(id, { name: 'installer', url: `${base}/a.iso` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.attributes).toMatchObject({ name: 'installer', state: 'fetching', size_mb: null });
    const iso = await settledIso(id, res.body.attributes.uuid);
    expect(iso).toMatchObject({
      state: 'available',
      size_mb: 2,
      sha256: createHash('sha256').update(ISO).digest('hex'),
      error: null,
    });
    expect(t.hostOf(id).hypervisor().instances[id]!.isos?.[iso.uuid]).toEqual({
      size_mb: 2,
      sha256: iso.sha256,
    });
    const again = await add(id, { name: 'installer', url: `${base}/a.iso` });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('SVC-CONFLICT-409');
    // The guest was not held: the instance has no operation of the fetch.
    expect((await t.api('GET', `/${id}`)).body.attributes.status).toBe('running');
  });

  it('refuses URLs to refused addresses, other schemes and bad input, adding nothing', async () => {
    const { id } = await t.instance();
    for (const body of [
      { name: 'a', url: 'https://10.0.0.5/a.iso' },
      { name: 'a', url: 'http://169.254.169.254/latest/meta-data/' },
      { name: 'a', url: 'https://[::1]/a.iso' },
      { name: 'a', url: 'https://localhost/a.iso' },
      { name: 'a', url: 'ftp://example.org/a.iso' },
      { name: 'a', url: 'https://user:pw@example.org/a.iso' },
      { name: 'a', url: 'not a url' },
      { name: '', url: `${base}/a.iso` },
      { name: 'a' },
      { name: 'a', url: `${base}/a.iso`, extra: 1 },
    ]) {
      const res = await add(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].code).toBe('SVC-REQ-400');
    }
    expect(await library(id)).toEqual([]);
  });

  it('a fetch the agent refuses is failed with the reason: a redirect, a missing file', async () => {
    const { id } = await t.instance();
    const moved = await add(id, { name: 'moved', url: `${base}/moved` });
    const missing = await add(id, { name: 'missing', url: `${base}/missing.iso` });
    expect([moved.status, missing.status]).toEqual([201, 201]);
    expect(await settledIso(id, moved.body.attributes.uuid)).toMatchObject({
      state: 'failed',
      error: { code: 'ISO_REDIRECTED' },
    });
    expect(await settledIso(id, missing.body.attributes.uuid)).toMatchObject({
      state: 'failed',
      error: { code: 'ISO_FETCH_FAILED' },
    });
  });

  it('holds at most MAX_ISOS_PER_INSTANCE; two adds of one name at once: one is added', async () => {
    const { id } = await t.instance();
    const both = await Promise.all([0, 1].map(() => add(id, { name: 'twin', url: `${base}/a.iso` })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await add(id, { name: 'two', url: `${base}/a.iso` })).status).toBe(201);
    expect((await add(id, { name: 'three', url: `${base}/a.iso` })).status).toBe(201);
    const full = await add(id, { name: 'four', url: `${base}/a.iso` });
    expect(full.status).toBe(409);
    expect(full.body.errors[0].code).toBe('SVC-QUOTA-409');
    expect(await library(id)).toHaveLength(3);
  });

  it('another customer’s instance is not found, and no key is 401', async () => {
    const { id } = await t.instance();
    const foreign = await t.env.stranger.call('POST', `/api/client/cloud/${id}/media/iso`, {
      name: 'x',
      url: `${base}/a.iso`,
    });
    expect(foreign.status).toBe(404);
    expect((await t.env.stranger.call('GET', `/api/client/cloud/${id}/media/iso`)).status).toBe(404);
    expect((await t.api('GET', `/${randomUUID()}/media/iso`)).status).toBe(404);
    expect((await t.env.call(null, 'GET', `/api/client/cloud/${id}/media/iso`)).status).toBe(401);
    expect(await library(id)).toEqual([]);
  });
});
