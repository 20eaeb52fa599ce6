import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockInstance } from '../../db/repositories/instances/instances.js';
import { moveIso } from '../../db/repositories/storage/instance-isos.js';
import { deleteLibraryIso } from '../../services/media/iso-delete.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';

/**
 * The Application API's ISOs: an administrator shows, adds (for a customer, by the customer's
 * rules), renames and deletes them. The agent of the instance's hypervisor fetches each ISO for
 * real, from a server of the test's own on loopback, and removes its file on a delete.
 */
const ISO = randomBytes(1024 * 1024);
let t: BackupStack;
let server: Server;
let base: string;
/** Requests for `/slow.iso`, answered only when the test lets them go. */
const held: ServerResponse[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/a.iso') return res.end(ISO);
    if (req.url === '/slow.iso') return void held.push(res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startBackupStack({ ISO_ALLOW_HTTP: 'true', ISO_ALLOWED_NETWORKS: '127.0.0.0/8' });
});
afterAll(async () => {
  for (const res of held) res.end(ISO);
  server.close();
  await t?.close();
});

const admin = (method: string, path: string, body?: unknown) =>
  t.env.admin.call(method, `/api/application/cloudsvc${path}`, body);
const shown = async (isoId: string): Promise<Body | undefined> => {
  const res = await admin('GET', `/isos/${isoId}`);
  return res.status === 200 ? res.body.attributes : undefined;
};
const settled = (
  isoId: string,
  ready: (iso: Body) => boolean = (i) => ['available', 'failed'].includes(i.state),
) =>
  eventually(
    async () => {
      const iso = await shown(isoId);
      return iso && ready(iso) ? iso : undefined;
    },
    20_000,
    `ISO ${isoId} to settle`,
  );
const gone = (isoId: string) =>
  eventually(
    async () => ((await admin('GET', `/isos/${isoId}`)).status === 404 ? true : undefined),
    20_000,
    `ISO ${isoId} to be gone`,
  );
/** An ISO added by the administrator to the instance's library, fetched and `available`. */
async function fetched(instanceId: string, name: string): Promise<string> {
  const res = await admin('POST', '/isos', { instance: instanceId, name, url: `${base}/a.iso` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((await settled(res.body.attributes.uuid)).state).toBe('available');
  return res.body.attributes.uuid;
}
const isoFile = (instanceId: string, isoId: string) =>
  join(t.hostOf(instanceId).stateDir, 'isos', instanceId, `${isoId}.iso`);
const deletesOn = (instanceId: string, isoId: string) =>
  t
    .hostOf(instanceId)
    .hypervisor()
    .applied.filter((a) => a.type === 'iso.delete' && a.detail === isoId);
const media = (instanceId: string, action: string, body?: unknown) =>
  t.api('POST', `/${instanceId}/media/iso/${action}`, body);
const activity = (instanceId: string, event: string) =>
  t.env.db
    .selectFrom('activity_log')
    .select(['actor', 'detail'])
    .where('instance_id', '=', instanceId)
    .where('event', '=', event)
    .execute();

/** Holds the instance's row, as a request there first would, until `release()` commits. */
async function holdInstance(instanceId: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let locked!: () => void;
  const taken = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const held = t.env.db.transaction().execute(async (trx) => {
    await lockInstance(trx, instanceId);
    locked();
    await gate;
  });
  await taken;
  return {
    async release() {
      open();
      await held;
    },
  };
}
/** Until `n` requests of this database wait for a row lock. */
const waiting = (n: number) =>
  eventually(
    async () => {
      const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(t.env.db);
      return rows[0]!.waiting >= n ? true : undefined;
    },
    10_000,
    `${n} requests waiting for the instance`,
  );

describe('an administrator’s ISOs', () => {
  it('adds one to a customer’s instance, fetched by its hypervisor; shows it; the customer sees it; logged', async () => {
    const { id } = await t.instance();
    const res = await admin('POST', '/isos', { instance: id, name: 'installer', url: `${base}/a.iso` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      object: 'iso',
      attributes: {
        name: 'installer',
        state: 'fetching',
        user: t.env.client.id,
        instance: id,
        mounted: false,
      },
    });
    const iso = await settled(res.body.attributes.uuid);
    expect(iso).toMatchObject({ state: 'available', size_mb: 1, hypervisor: expect.any(String) });
    expect(existsSync(isoFile(id, iso.uuid))).toBe(true);
    const theirs = (await t.api('GET', `/${id}/media/iso`)).body.data.map((d: Body) => d.attributes.uuid);
    expect(theirs).toEqual([iso.uuid]);
    expect(await activity(id, 'iso.added')).toEqual([
      { actor: `admin:${t.env.admin.id}`, detail: expect.objectContaining({ iso_id: iso.uuid }) },
    ]);
    // The customer's rules: a name taken in the library is 409, as it is for them.
    const again = await admin('POST', '/isos', { instance: id, name: 'installer', url: `${base}/a.iso` });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('SVC-CONFLICT-409');
  });

  it('refuses bad input naming the field, and an unknown instance with 404 naming `instance`; adds nothing', async () => {
    const { id } = await t.instance();
    const unknown = await admin('POST', '/isos', { instance: randomUUID(), name: 'a', url: `${base}/a.iso` });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'SVC-RES-404', source: { field: 'instance' } });
    for (const [body, field] of [
      [{ instance: 'not-a-uuid', name: 'a', url: `${base}/a.iso` }, 'instance'],
      [{ instance: id, name: '', url: `${base}/a.iso` }, 'name'],
      [{ instance: id, name: '   ', url: `${base}/a.iso` }, 'name'],
      [{ instance: id, name: 'a'.repeat(65), url: `${base}/a.iso` }, 'name'],
      [{ instance: id, name: 'a', url: 'https://10.0.0.5/a.iso' }, 'url'],
      [{ instance: id, name: 'a', url: 'ftp://example.org/a.iso' }, 'url'],
      [{ name: 'a', url: `${base}/a.iso` }, 'instance'],
      [{ instance: id, name: 'a', url: `${base}/a.iso`, user: t.env.stranger.id }, 'user'],
    ] as const) {
      const res = await admin('POST', '/isos', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400', source: { field } });
    }
    expect((await admin('GET', `/isos?instance=${id}`)).body.data).toEqual([]);
    for (const path of [`/isos/${randomUUID()}`, '/isos/not-a-uuid']) {
      const res = await admin('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.errors[0].code).toBe('SVC-RES-404');
    }
  });

  it('renames one, the same name again alike; a taken or empty name is refused and changes nothing', async () => {
    const { id } = await t.instance();
    const one = await fetched(id, 'one');
    await fetched(id, 'two');
    const renamed = await admin('PATCH', `/isos/${one}`, { name: '  debian-12  ' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.attributes).toMatchObject({ uuid: one, name: 'debian-12', state: 'available' });
    const again = await admin('PATCH', `/isos/${one}`, { name: 'debian-12' });
    expect(again.status).toBe(200);
    expect(again.body.attributes.updated_at).toBe(renamed.body.attributes.updated_at);
    expect(await activity(id, 'iso.renamed')).toEqual([
      { actor: `admin:${t.env.admin.id}`, detail: { iso_id: one, name: 'debian-12', from: 'one' } },
    ]);

    const taken = await admin('PATCH', `/isos/${one}`, { name: 'two' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0].code).toBe('SVC-CONFLICT-409');
    for (const body of [
      { name: '' },
      { name: ' ' },
      {},
      { name: 'x', url: `${base}/a.iso` },
      { name: 'a\nb' },
    ]) {
      const res = await admin('PATCH', `/isos/${one}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].code).toBe('SVC-REQ-400');
    }
    for (const path of [`/isos/${randomUUID()}`, '/isos/nope']) {
      const res = await admin('PATCH', path, { name: 'x' });
      expect(res.status, path).toBe(404);
    }
    expect((await shown(one))!.name).toBe('debian-12');
  });

  it('deletes one: 202 `deleting`, its file removed from the hypervisor, then gone; a second delete is 404', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    const res = await admin('DELETE', `/isos/${iso}`);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.attributes).toMatchObject({ uuid: iso, state: 'deleting', instance: id });
    await gone(iso);
    expect(existsSync(isoFile(id, iso))).toBe(false);
    expect(t.hostOf(id).hypervisor().instances[id]!.isos).toEqual({});
    expect(deletesOn(id, iso)).toHaveLength(1);
    expect((await t.api('GET', `/${id}/media/iso`)).body.data).toEqual([]);
    expect(await activity(id, 'iso.deleted')).toEqual([
      { actor: `admin:${t.env.admin.id}`, detail: { iso_id: iso, name: 'installer' } },
    ]);

    const twice = await admin('DELETE', `/isos/${iso}`);
    expect(twice.status).toBe(404);
    expect(twice.body.errors[0].code).toBe('SVC-RES-404');
    expect((await admin('DELETE', '/isos/not-a-uuid')).status).toBe(404);
    // A failed ISO goes the same way.
    const failed = await admin('POST', '/isos', {
      instance: id,
      name: 'missing',
      url: `${base}/missing.iso`,
    });
    expect((await settled(failed.body.attributes.uuid)).state).toBe('failed');
    expect((await admin('DELETE', `/isos/${failed.body.attributes.uuid}`)).status).toBe(202);
    await gone(failed.body.attributes.uuid);
  });

  it('refuses to delete a mounted ISO with 409 ISO_MOUNTED: still there, still mounted, its file kept; unmounted, it goes', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    expect((await media(id, 'mount', { iso })).status).toBe(202);
    await t.settled(id, 'running');
    for (let i = 0; i < 2; i++) {
      const refused = await admin('DELETE', `/isos/${iso}`);
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('ISO_MOUNTED');
      expect(refused.body.errors[0].detail).toMatch(/unmount it first/);
    }
    expect(await shown(iso)).toMatchObject({ state: 'available', mounted: true });
    expect(t.hostOf(id).hypervisor().instances[id]!.mounted_iso).toBe(iso);
    expect(existsSync(isoFile(id, iso))).toBe(true);
    expect(deletesOn(id, iso)).toHaveLength(0);
    expect(await activity(id, 'iso.deleted')).toEqual([]);

    expect((await media(id, 'unmount')).status).toBe(202);
    await t.settled(id, 'running');
    expect((await admin('DELETE', `/isos/${iso}`)).status).toBe(202);
    await gone(iso);
    expect(existsSync(isoFile(id, iso))).toBe(false);
  });

  it('two deletes at once: one is accepted, the other refused; the file is removed once', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    const both = await Promise.all([0, 1].map(() => admin('DELETE', `/isos/${iso}`)));
    const accepted = both.filter((r) => r.status === 202);
    expect(accepted, JSON.stringify(both.map((r) => r.body))).toHaveLength(1);
    // The other found it `deleting`, or (had the first run ended by then) gone.
    const other = both.find((r) => r !== accepted[0])!;
    expect([409, 404]).toContain(other.status);
    expect(other.body.errors[0].code).toBe(other.status === 409 ? 'SVC-CONFLICT-409' : 'SVC-RES-404');
    await gone(iso);
    expect(existsSync(isoFile(id, iso))).toBe(false);
    expect(deletesOn(id, iso)).toHaveLength(1);
    expect(await activity(id, 'iso.deleted')).toHaveLength(1);
  });

  it('a delete and a mount at once: one wins, and the drive, the library and the hypervisor agree', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    const [removed, mounted] = await Promise.all([
      admin('DELETE', `/isos/${iso}`),
      media(id, 'mount', { iso }),
    ]);
    const answers = JSON.stringify([removed.body, mounted.body]);
    if (removed.status === 202) {
      // The mount found the ISO `deleting` (409), or already gone from the library (400 naming `iso`).
      expect([409, 400], answers).toContain(mounted.status);
    } else {
      expect(removed.status, answers).toBe(409);
      expect(mounted.status, answers).toBe(202);
    }
    await t.settled(id, 'running');
    if (removed.status === 202) {
      await gone(iso);
      expect(t.hostOf(id).hypervisor().instances[id]!.mounted_iso ?? null).toBe(null);
      expect(existsSync(isoFile(id, iso))).toBe(false);
    } else {
      expect(['ISO_MOUNTED', 'SVC-OP-409']).toContain(removed.body.errors[0].code);
      expect(await settled(iso, (i) => i.mounted)).toMatchObject({ state: 'available', mounted: true });
      expect(t.hostOf(id).hypervisor().instances[id]!.mounted_iso).toBe(iso);
      expect(existsSync(isoFile(id, iso))).toBe(true);
    }
  });

  it('a delete that waits for the instance behind a mount sees the mount’s operation: 409 SVC-OP-409, the ISO mounted', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    const hold = await holdInstance(id);
    const mounting = media(id, 'mount', { iso });
    await waiting(1);
    const removing = admin('DELETE', `/isos/${iso}`);
    await waiting(2);
    await hold.release();
    const [mounted, removed] = await Promise.all([mounting, removing]);
    expect(mounted.status, JSON.stringify(mounted.body)).toBe(202);
    expect(removed.status, JSON.stringify(removed.body)).toBe(409);
    expect(removed.body.errors[0].code).toBe('SVC-OP-409');
    await t.settled(id, 'running');
    expect(await shown(iso)).toMatchObject({ state: 'available', mounted: true });
    expect(existsSync(isoFile(id, iso))).toBe(true);
  });

  it('a mount that waits for the instance behind a delete finds the ISO `deleting`: 409, and the ISO goes', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    const hold = await holdInstance(id);
    const removing = admin('DELETE', `/isos/${iso}`);
    await waiting(1);
    const mounting = media(id, 'mount', { iso });
    await waiting(2);
    await hold.release();
    const [removed, mounted] = await Promise.all([removing, mounting]);
    expect(removed.status, JSON.stringify(removed.body)).toBe(202);
    expect(mounted.status, JSON.stringify(mounted.body)).toBe(409);
    expect(mounted.body.errors[0].code).toBe('SVC-CONFLICT-409');
    await gone(iso);
    expect(t.hostOf(id).hypervisor().instances[id]!.mounted_iso ?? null).toBe(null);
    expect((await t.latestTask(id)).operation).not.toBe('iso_mount');
  });

  it('a delete the hypervisor fails leaves the ISO as it was, file and all; asked again, it goes', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    t.hostOf(id).armFault('iso.delete', { mode: 'fail-permanently' });
    expect((await admin('DELETE', `/isos/${iso}`)).status).toBe(202);
    expect(await settled(iso, (i) => i.state !== 'deleting')).toMatchObject({
      state: 'available',
      mounted: false,
    });
    expect(existsSync(isoFile(id, iso))).toBe(true);
    expect((await admin('DELETE', `/isos/${iso}`)).status).toBe(202);
    await gone(iso);
    expect(existsSync(isoFile(id, iso))).toBe(false);
  });

  it('a delete whose run cannot start (Temporal unreachable) is 503, the ISO as it was', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    const cut = { ...t.env.deps, config: { ...t.env.deps.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } };
    await expect(
      deleteLibraryIso(cut, { type: 'admin', userId: t.env.admin.id }, { isoId: iso, correlationId: null }),
    ).rejects.toMatchObject({ code: 'SVC-SYS-503' });
    expect(await shown(iso)).toMatchObject({ state: 'available' });
    expect((await admin('DELETE', `/isos/${iso}`)).status).toBe(202);
    await gone(iso);
  });

  it('refuses to delete an ISO still being fetched; one being deleted is neither mounted, renamed nor deleted again', async () => {
    const { id } = await t.instance();
    const slow = await admin('POST', '/isos', { instance: id, name: 'slow', url: `${base}/slow.iso` });
    expect(slow.status).toBe(201);
    const slowId: string = slow.body.attributes.uuid;
    await eventually(
      async () => (held.length > 0 ? true : undefined),
      20_000,
      'the fetch to reach the server',
    );
    const fetching = await admin('DELETE', `/isos/${slowId}`);
    expect(fetching.status).toBe(409);
    expect(fetching.body.errors[0]).toMatchObject({
      code: 'SVC-CONFLICT-409',
      detail: expect.stringMatching(/fetch/),
    });
    for (const res of held.splice(0)) res.end(ISO);
    expect((await settled(slowId)).state).toBe('available');

    // Held `deleting` as a delete's run holds it, the run itself not started.
    expect(await moveIso(t.env.db, slowId, { from: ['available'], to: 'deleting' })).toBe(true);
    for (const res of [
      await media(id, 'mount', { iso: slowId }),
      await media(id, 'boot', { iso: slowId }),
      await admin('PATCH', `/isos/${slowId}`, { name: 'renamed' }),
      await admin('DELETE', `/isos/${slowId}`),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.errors[0].code).toBe('SVC-CONFLICT-409');
    }
    expect(await shown(slowId)).toMatchObject({ name: 'slow', state: 'deleting', mounted: false });
    expect(await moveIso(t.env.db, slowId, { from: ['deleting'], to: 'available' })).toBe(true);
  });

  it('refuses a client key (403) and no key (401) on every ISO route, changing nothing', async () => {
    const { id } = await t.instance();
    const iso = await fetched(id, 'installer');
    const before = await shown(iso);
    const routes: [string, string, unknown?][] = [
      ['GET', '/isos'],
      ['POST', '/isos', { instance: id, name: 'other', url: `${base}/a.iso` }],
      ['GET', `/isos/${iso}`],
      ['PATCH', `/isos/${iso}`, { name: 'renamed' }],
      ['DELETE', `/isos/${iso}`],
    ];
    for (const [method, path, body] of routes) {
      const url = `/api/application/cloudsvc${path}`;
      const asClient = await t.env.client.call(method, url, body);
      expect(asClient.status, `${method} ${path}`).toBe(403);
      expect(asClient.body.errors[0].code).toBe('SVC-AUTH-403');
      const anonymous = await t.env.call(null, method, url, body);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.errors[0].code).toBe('SVC-AUTH-401');
    }
    expect(await shown(iso)).toEqual(before);
    expect((await admin('GET', `/isos?instance=${id}`)).body.data).toHaveLength(1);
    expect(existsSync(isoFile(id, iso))).toBe(true);
  });
});
