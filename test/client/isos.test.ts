import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addIso } from '../../services/media/isos.js';
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
    // Heartbeats, and with them the agents' inventories, every 200 s: what a boot did reaches the
    // panel with the boot's own completion, never by an inventory.
    HYPERVISOR_UNREACHABLE_AFTER_MS: '600000',
  });
});
afterAll(async () => {
  server.close();
  await t?.close();
});

const add = (instanceId: string, body: Body) => t.api('POST', `/${instanceId}/media/iso`, body);
const library = async (instanceId: string): Promise<Body[]> =>
  (await t.api('GET', `/${instanceId}/media/iso`)).body.data.map((d: Body) => d.attributes);
const media = (instanceId: string, action: string, body?: unknown) =>
  t.api('POST', `/${instanceId}/media/iso/${action}`, body);
/** An ISO of the instance's library, fetched and `available`. */
async function fetched(instanceId: string, name: string): Promise<string> {
  const res = await add(instanceId, { name, url: `${base}/a.iso` });
  expect(res.status).toBe(201);
  expect((await settledIso(instanceId, res.body.attributes.uuid)).state).toBe('available');
  return res.body.attributes.uuid;
}
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

  it('an add whose fetch cannot start (Temporal unreachable) is 503 and leaves no ISO; the same name is taken after', async () => {
    const { id } = await t.instance();
    const cut = { ...t.env.deps, config: { ...t.env.deps.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } };
    const customer = { type: 'user' as const, userId: t.env.client.id };
    await expect(
      addIso(cut, customer, { instanceId: id, name: 'installer', url: `${base}/a.iso`, correlationId: null }),
    ).rejects.toMatchObject({ code: 'SVC-SYS-503' });
    expect(await library(id)).toEqual([]);
    expect((await add(id, { name: 'installer', url: `${base}/a.iso` })).status).toBe(201);
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

  it('mounts, replaces and unmounts an ISO, each twice alike; the hypervisor’s drive and the library agree', async () => {
    const { id } = await t.instance();
    const one = await fetched(id, 'one');
    const two = await fetched(id, 'two');
    const drive = () => t.hostOf(id).hypervisor().instances[id]!.mounted_iso ?? null;
    const mountedIds = async () => (await library(id)).filter((i) => i.mounted).map((i) => i.uuid);

    const res = await media(id, 'mount', { iso: one });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await t.settled(id, 'running');
    expect(await mountedIds()).toEqual([one]);
    expect(drive()).toBe(one);
    expect((await media(id, 'mount', { iso: one })).status).toBe(200);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'iso_mount', state: 'succeeded' });
    const preflight = await t.env.admin.call('POST', `/admin/cloudsvc/instances/${id}/migrations/preflight`, {
      mode: 'COLD',
    });
    expect(preflight.body.attributes.blockers.map((b: Body) => b.code)).toContain('ISO_MOUNTED');

    expect((await media(id, 'mount', { iso: two })).status).toBe(202);
    await t.settled(id, 'running');
    expect(await mountedIds()).toEqual([two]);
    expect(drive()).toBe(two);

    expect((await media(id, 'unmount')).status).toBe(202);
    await t.settled(id, 'running');
    expect(await mountedIds()).toEqual([]);
    expect(drive()).toBe(null);
    expect((await media(id, 'unmount', {})).status).toBe(200);
  });

  it('booted from an ISO, the guest has no memory room: a plan change’s dry run says so as the boot settles, vCPUs stay hot; started from its disk, the room is back at once; twice alike', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'room');
    const dryRun = async (size: Record<string, number>) =>
      (
        await t.env.admin.call('POST', `/api/application/cloudsvc/instances/${id}/resize`, {
          ...size,
          dry_run: true,
        })
      ).body.attributes;
    const bootedCeiling = () => t.hostOf(id).hypervisor().instances[id]!.booted_ceiling;
    expect(await dryRun({ memory_mb: 1024 + 256 })).toMatchObject({ mode: 'hot' });

    for (const round of [1, 2]) {
      expect((await media(id, 'boot', { iso })).status, `ISO boot ${round}`).toBe(202);
      await t.settled(id, 'running');
      // No inventory comes within the test (heartbeats every 200 s): the boot's completion carried the room.
      const cold = await dryRun({ memory_mb: 1024 + 256 });
      expect(cold, `dry run after ISO boot ${round}`).toMatchObject({
        mode: 'cold',
        reasons: ['more than 1024 MB of memory'],
        hot_ceiling: { cpu_cores: 8, memory_mb: 1024 },
      });
      expect(await dryRun({ cpu_cores: 2 })).toMatchObject({ mode: 'hot', reasons: [] });
      expect(bootedCeiling()).toEqual({ cpu_cores: 8, memory_mb: 1024 });

      expect((await t.api('POST', `/${id}/power`, { action: 'restart' })).status).toBe(202);
      await t.settled(id, 'running');
      const hot = await dryRun({ memory_mb: 1024 + 256 });
      expect(hot, `dry run after the disk boot ${round}`).toMatchObject({
        mode: 'hot',
        hot_ceiling: { cpu_cores: 8, memory_mb: 16_384 },
      });
      expect(bootedCeiling()).toBeUndefined();
    }
  });

  it('boots a running and a stopped instance from an ISO; it runs with the ISO mounted', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    expect((await media(id, 'boot', { iso })).status).toBe(202);
    await t.settled(id, 'running');
    expect(
      t
        .hostOf(id)
        .hypervisor()
        .applied.filter((a) => a.type === 'iso.boot' && a.instance_id === id),
    ).toHaveLength(1);
    expect((await library(id))[0]).toMatchObject({ uuid: iso, mounted: true });
    expect(await t.latestTask(id)).toMatchObject({ operation: 'iso_boot', state: 'succeeded' });
    expect((await t.api('POST', `/${id}/power`, { action: 'stop' })).status).toBe(202);
    await t.settled(id, 'stopped');
    expect((await media(id, 'boot', { iso })).status).toBe(202);
    expect((await t.settled(id, 'running')).status).toBe('running');
  });

  it('refuses an ISO not fetched or not in the library, bad input and two changes at once; a failed mount leaves the drive as it was', async () => {
    const { id } = await t.instance();
    const one = await fetched(id, 'one');
    const two = await fetched(id, 'two');
    const failed = await add(id, { name: 'broken', url: `${base}/missing.iso` });
    await settledIso(id, failed.body.attributes.uuid);
    const other = await t.instance();
    const elsewhere = await fetched(other.id, 'elsewhere');
    for (const [body, status, code] of [
      [{ iso: failed.body.attributes.uuid }, 409, 'SVC-CONFLICT-409'],
      [{ iso: elsewhere }, 400, 'SVC-REQ-400'],
      [{ iso: randomUUID() }, 400, 'SVC-REQ-400'],
      [{ iso: 'nope' }, 400, 'SVC-REQ-400'],
      [{}, 400, 'SVC-REQ-400'],
    ] as const) {
      const res = await media(id, 'mount', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.errors[0].code).toBe(code);
    }
    const both = await Promise.all([media(id, 'mount', { iso: one }), media(id, 'mount', { iso: two })]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    await t.settled(id, 'running');
    const held = (await library(id)).filter((i) => i.mounted).map((i) => i.uuid);
    expect(held).toHaveLength(1);

    t.hostOf(id).armFault('iso.mount', { mode: 'fail-permanently' });
    const next = held[0] === one ? two : one;
    expect((await media(id, 'mount', { iso: next })).status).toBe(202);
    await t.settled(id, 'running');
    expect((await library(id)).filter((i) => i.mounted).map((i) => i.uuid)).toEqual(held);
    expect(t.hostOf(id).hypervisor().instances[id]!.mounted_iso).toBe(held[0]);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'iso_mount', state: 'failed' });
    const foreign = await t.env.stranger.call('POST', `/api/client/cloud/${id}/media/iso/mount`, {
      iso: one,
    });
    expect(foreign.status).toBe(404);
  });
});
