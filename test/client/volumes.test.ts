import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachVolume } from '../../services/storage/volume-attachments.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';

/**
 * Customers' volumes through the Client API, with real (in-process) agents: after every change the
 * volume's row, the room it holds and the simulated hypervisor agree.
 */
let t: BackupStack;
const MAX_MB = 8192;
beforeAll(async () => {
  t = await startBackupStack({ VOLUME_MAX_SIZE_MB: String(MAX_MB), MAX_VOLUMES_PER_USER: '40' });
});
afterAll(() => t.close());

const create = (body: Body) => t.api('POST', '/volumes', body);
const show = async (id: string): Promise<Body> => (await t.api('GET', `/volumes/${id}`)).body.attributes;
const action = (id: string, verb: 'attach' | 'detach' | 'resize', body?: unknown) =>
  t.api('POST', `/volumes/${id}/${verb}`, body);

async function volume(sizeMb = 2048): Promise<Body> {
  const res = await create({
    name: `data-${randomUUID().slice(0, 8)}`,
    location: t.location.code,
    size_mb: sizeMb,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attributes;
}

/** The volume once no operation changes it. */
const settledVolume = (id: string) =>
  eventually(
    async () => {
      const v = await show(id);
      return ['available', 'attached'].includes(v.state) ? v : undefined;
    },
    20_000,
    `volume ${id} to settle`,
  );

/** What the panel holds of the volume: its row and its active reservation. */
async function panelOf(id: string) {
  const row = await t.env.db
    .selectFrom('volumes')
    .select(['hypervisor_id', 'provisioned_mb', 'size_mb', 'instance_id', 'state'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const held = await t.env.db
    .selectFrom('reservations')
    .select(['hypervisor_id', 'disk_mb'])
    .where('volume_id', '=', id)
    .where('released_at', 'is', null)
    .execute();
  return { ...row, held };
}

/** The volume as each simulated hypervisor has it. */
const onHosts = (id: string) => t.hosts.map((h) => h.agent.hypervisor().volumes?.[id]).filter(Boolean);

async function attached(volumeId: string, instanceId: string): Promise<Body> {
  const res = await action(volumeId, 'attach', { instance: instanceId });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body.attributes).toMatchObject({ state: 'attaching', instance: instanceId });
  await t.settled(instanceId);
  return settledVolume(volumeId);
}

describe('creating and showing volumes', () => {
  it('records a volume on no hypervisor, lists and shows it; a second of the same name is refused', async () => {
    const v = await volume(3072);
    expect(v).toMatchObject({
      location: t.location.code,
      backend: 'local',
      size_mb: 3072,
      state: 'available',
      instance: null,
    });
    expect(await show(v.uuid)).toEqual(v);
    const list = (await t.api('GET', '/volumes?per_page=100')).body;
    expect(list.data.map((d: Body) => d.attributes.uuid)).toContain(v.uuid);
    expect(await panelOf(v.uuid)).toMatchObject({ hypervisor_id: null, provisioned_mb: null, held: [] });
    const again = await create({ name: v.name, location: t.location.code, size_mb: 2048 });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('SVC-CONFLICT-409');
  });

  it('refuses bad input and a size beyond the provider’s largest, creating nothing', async () => {
    const count = async () => (await t.api('GET', '/volumes?per_page=1')).body.meta.pagination.total;
    const before = await count();
    const name = `bad-${randomUUID().slice(0, 8)}`;
    for (const [body, status, code] of [
      [{ name, location: t.location.code, size_mb: 512 }, 400, 'SVC-REQ-400'],
      [{ name, location: t.location.code, size_mb: 2048.5 }, 400, 'SVC-REQ-400'],
      [{ name, location: t.location.code, size_mb: '2048' }, 400, 'SVC-REQ-400'],
      [{ name, location: 'nowhere', size_mb: 2048 }, 400, 'SVC-REQ-400'],
      [{ name, location: t.location.code, size_mb: 2048, backend: 'tape' }, 400, 'SVC-REQ-400'],
      [{ name, location: t.location.code, size_mb: 2048, extra: 1 }, 400, 'SVC-REQ-400'],
      [{ name: '', location: t.location.code, size_mb: 2048 }, 400, 'SVC-REQ-400'],
      [{ name, location: t.location.code, size_mb: MAX_MB + 1 }, 409, 'SVC-QUOTA-409'],
    ] as const) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.errors[0].code).toBe(code);
    }
    expect(await count()).toBe(before);
  });

  it('two creates of one name at once: one is made', async () => {
    const name = `twin-${randomUUID().slice(0, 8)}`;
    const both = await Promise.all(
      [0, 1].map(() => create({ name, location: t.location.code, size_mb: 2048 })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('another customer’s volume is not found, and no key is 401', async () => {
    const v = await volume();
    const { id } = await t.instance();
    for (const [method, path, body] of [
      ['GET', `/volumes/${v.uuid}`, undefined],
      ['POST', `/volumes/${v.uuid}/attach`, { instance: id }],
      ['POST', `/volumes/${v.uuid}/detach`, {}],
      ['POST', `/volumes/${v.uuid}/resize`, { size_mb: 4096 }],
    ] as const) {
      const res = await t.env.stranger.call(method, `/api/client/cloud${path}`, body);
      expect(res.status, path).toBe(404);
      expect(res.body.errors[0].code).toBe('SVC-RES-404');
    }
    expect((await t.api('GET', `/volumes/${randomUUID()}`)).status).toBe(404);
    expect((await t.env.call(null, 'GET', '/api/client/cloud/volumes')).status).toBe(401);
    // The customer's volume on a stranger's instance: the instance is not found.
    expect((await action(v.uuid, 'attach', { instance: randomUUID() })).status).toBe(404);
    expect(await show(v.uuid)).toMatchObject({ state: 'available', size_mb: 2048 });
    expect(onHosts(v.uuid)).toEqual([]);
  });
});

describe('attaching and detaching', () => {
  it('makes the disk on the instance’s hypervisor and attaches it, twice alike; detaches, twice alike; the records agree', async () => {
    const v = await volume(2048);
    const { id } = await t.instance();
    const hypervisorId = (
      await t.env.db
        .selectFrom('instances')
        .select('hypervisor_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).hypervisor_id!;
    expect(await attached(v.uuid, id)).toMatchObject({ state: 'attached', instance: id });
    expect(await panelOf(v.uuid)).toMatchObject({
      hypervisor_id: hypervisorId,
      provisioned_mb: 2048,
      instance_id: id,
      held: [{ hypervisor_id: hypervisorId, disk_mb: 2048 }],
    });
    expect(t.hostOf(id).hypervisor().volumes?.[v.uuid]).toMatchObject({
      size_mb: 2048,
      instance_id: id,
      slot: 1,
    });
    expect((await t.api('GET', `/${id}/storage`)).body.attributes.volumes).toEqual([
      { uuid: v.uuid, name: v.name, size_mb: 2048, state: 'attached' },
    ]);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'volume_attach', state: 'succeeded' });

    const again = await action(v.uuid, 'attach', { instance: id });
    expect(again.status).toBe(200);
    expect(again.body.attributes.state).toBe('attached');

    const off = await action(v.uuid, 'detach');
    expect(off.status, JSON.stringify(off.body)).toBe(202);
    expect(off.body.attributes.state).toBe('detaching');
    await t.settled(id);
    expect(await settledVolume(v.uuid)).toMatchObject({ state: 'available', instance: null });
    expect(t.hostOf(id).hypervisor().volumes?.[v.uuid]).toMatchObject({ instance_id: null, slot: null });
    // Its disk and its room stay where it is kept.
    expect(await panelOf(v.uuid)).toMatchObject({ hypervisor_id: hypervisorId, held: [{ disk_mb: 2048 }] });
    expect((await action(v.uuid, 'detach', {})).status).toBe(200);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'volume_detach', state: 'succeeded' });
  });

  it('a kept volume attaches only to instances on its hypervisor; one on another instance is refused', async () => {
    const v = await volume();
    const first = await t.instance();
    await attached(v.uuid, first.id);
    // Another instance on the same hypervisor, and one on the other.
    let same: string | undefined;
    let other: string | undefined;
    while (!same || !other) {
      const { id } = await t.instance();
      if (t.hostOf(id) === first.agent) same ??= id;
      else other ??= id;
    }
    const busy = await action(v.uuid, 'attach', { instance: same });
    expect(busy.status).toBe(409);
    expect(busy.body.errors[0].detail).toMatch(/another instance/);
    await action(v.uuid, 'detach');
    await t.settled(first.id);
    await settledVolume(v.uuid);
    const elsewhere = await action(v.uuid, 'attach', { instance: other });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.errors[0].detail).toMatch(/another hypervisor/);
    expect(await attached(v.uuid, same)).toMatchObject({ state: 'attached', instance: same });
  });

  it('two attaches of one volume at once: one runs, the other is refused; a stopped instance takes one too', async () => {
    const v = await volume();
    const a = await t.instance();
    const both = await Promise.all([
      action(v.uuid, 'attach', { instance: a.id }),
      action(v.uuid, 'attach', { instance: a.id }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    await t.settled(a.id);
    expect(await settledVolume(v.uuid)).toMatchObject({ state: 'attached', instance: a.id });

    const b = await t.instance();
    expect((await t.api('POST', `/${b.id}/power`, { action: 'stop' })).status).toBe(202);
    await t.settled(b.id, 'stopped');
    const w = await volume();
    expect(await attached(w.uuid, b.id)).toMatchObject({ state: 'attached' });
    expect((await t.api('GET', `/${b.id}`)).body.attributes.status).toBe('stopped');
  });

  it('a hypervisor that fails the attach: the volume is on no instance and on no hypervisor again, its room let go', async () => {
    const v = await volume();
    const { id } = await t.instance();
    t.hostOf(id).armFault('volume.attach', { mode: 'fail-permanently' });
    expect((await action(v.uuid, 'attach', { instance: id })).status).toBe(202);
    await t.settled(id, 'running');
    expect(await settledVolume(v.uuid)).toMatchObject({ state: 'available', instance: null });
    expect(await panelOf(v.uuid)).toMatchObject({ hypervisor_id: null, provisioned_mb: null, held: [] });
    expect(onHosts(v.uuid)).toEqual([]);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'volume_attach', state: 'failed' });
    // It attaches once the hypervisor does.
    expect(await attached(v.uuid, id)).toMatchObject({ state: 'attached' });
  });

  it('an attach whose workflow cannot start (Temporal unreachable) is 503 and leaves the volume as it was', async () => {
    const v = await volume();
    const { id } = await t.instance();
    const cut = { ...t.env.deps, config: { ...t.env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } };
    const customer = { type: 'user' as const, userId: t.env.client.id };
    await expect(
      attachVolume(cut, customer, { volumeId: v.uuid, instanceId: id, correlationId: null }),
    ).rejects.toMatchObject({ code: 'SVC-SYS-503' });
    expect(await panelOf(v.uuid)).toMatchObject({
      state: 'available',
      instance_id: null,
      hypervisor_id: null,
      held: [],
    });
    expect(await attached(v.uuid, id)).toMatchObject({ state: 'attached' });
  });

  it('a hypervisor without the room refuses the first attach before anything is held', async () => {
    const v = await volume(MAX_MB);
    const { id } = await t.instance();
    const hypervisorId = (
      await t.env.db
        .selectFrom('instances')
        .select('hypervisor_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).hypervisor_id!;
    const { disk_mb } = await t.env.db
      .selectFrom('hypervisors')
      .select('disk_mb')
      .where('id', '=', hypervisorId)
      .executeTakeFirstOrThrow();
    await t.env.db.updateTable('hypervisors').set({ disk_mb: 0 }).where('id', '=', hypervisorId).execute();
    try {
      const res = await action(v.uuid, 'attach', { instance: id });
      expect(res.status).toBe(409);
      expect(res.body.errors[0].code).toBe('SVC-CAPACITY-409');
      expect(await panelOf(v.uuid)).toMatchObject({ hypervisor_id: null, state: 'available', held: [] });
    } finally {
      await t.env.db.updateTable('hypervisors').set({ disk_mb }).where('id', '=', hypervisorId).execute();
    }
  });

  it('deleting the instance detaches its volume and keeps it on its hypervisor', async () => {
    const v = await volume();
    const { id, agent } = await t.instance();
    await attached(v.uuid, id);
    expect((await t.api('DELETE', `/${id}`)).status).toBe(202);
    await eventually(
      async () => ((await t.api('GET', `/${id}`)).status === 404 ? true : undefined),
      20_000,
      'the instance to go',
    );
    expect(await show(v.uuid)).toMatchObject({ state: 'available', instance: null });
    expect(agent.hypervisor().volumes?.[v.uuid]).toMatchObject({ instance_id: null });
    expect((await panelOf(v.uuid)).held).toHaveLength(1);
  });
});

describe('growing volumes', () => {
  it('grows one on no instance at once, and its disk at its next attach; one on an instance by an operation, twice alike', async () => {
    const v = await volume(2048);
    const grown = await action(v.uuid, 'resize', { size_mb: 3072 });
    expect(grown.status).toBe(200);
    expect(grown.body.attributes).toMatchObject({ size_mb: 3072, state: 'available' });
    const { id } = await t.instance();
    await attached(v.uuid, id);
    expect(t.hostOf(id).hypervisor().volumes?.[v.uuid]).toMatchObject({ size_mb: 3072 });

    const res = await action(v.uuid, 'resize', { size_mb: 4096 });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.attributes).toMatchObject({ state: 'resizing', size_mb: 3072 });
    await t.settled(id, 'running');
    expect(await settledVolume(v.uuid)).toMatchObject({ state: 'attached', size_mb: 4096 });
    expect(await panelOf(v.uuid)).toMatchObject({ provisioned_mb: 4096, held: [{ disk_mb: 4096 }] });
    expect(t.hostOf(id).hypervisor().volumes?.[v.uuid]).toMatchObject({ size_mb: 4096 });
    expect((await action(v.uuid, 'resize', { size_mb: 4096 })).status).toBe(200);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'volume_resize', state: 'succeeded' });

    // Detached, it grows at once; its room is held where it is kept.
    await action(v.uuid, 'detach');
    await t.settled(id);
    await settledVolume(v.uuid);
    expect((await action(v.uuid, 'resize', { size_mb: 5120 })).status).toBe(200);
    expect(await panelOf(v.uuid)).toMatchObject({
      size_mb: 5120,
      provisioned_mb: 4096,
      held: [{ disk_mb: 5120 }],
    });
  });

  it('refuses a smaller size, one beyond the largest and bad input, changing nothing; two grows at once: one runs', async () => {
    const v = await volume(4096);
    for (const [size, status, code] of [
      [2048, 400, 'SVC-REQ-400'],
      [MAX_MB + 1, 409, 'SVC-QUOTA-409'],
      ['big', 400, 'SVC-REQ-400'],
      [0, 400, 'SVC-REQ-400'],
    ] as const) {
      const res = await action(v.uuid, 'resize', { size_mb: size });
      expect(res.status, String(size)).toBe(status);
      expect(res.body.errors[0].code).toBe(code);
    }
    expect((await show(v.uuid)).size_mb).toBe(4096);
    const { id } = await t.instance();
    await attached(v.uuid, id);
    const both = await Promise.all([
      action(v.uuid, 'resize', { size_mb: 5120 }),
      action(v.uuid, 'resize', { size_mb: 6144 }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    await t.settled(id);
    const won = (await settledVolume(v.uuid)).size_mb;
    expect([5120, 6144]).toContain(won);
    expect(t.hostOf(id).hypervisor().volumes?.[v.uuid]?.size_mb).toBe(won);
  });

  it('a hypervisor that fails the grow leaves the volume and its room as they were', async () => {
    const v = await volume(2048);
    const { id } = await t.instance();
    await attached(v.uuid, id);
    t.hostOf(id).armFault('volume.resize', { mode: 'fail-permanently' });
    expect((await action(v.uuid, 'resize', { size_mb: 3072 })).status).toBe(202);
    await t.settled(id, 'running');
    expect(await settledVolume(v.uuid)).toMatchObject({ state: 'attached', size_mb: 2048 });
    expect(await panelOf(v.uuid)).toMatchObject({ provisioned_mb: 2048, held: [{ disk_mb: 2048 }] });
    expect(await t.latestTask(id)).toMatchObject({ operation: 'volume_resize', state: 'failed' });
  });
});

describe('deleting volumes', () => {
  it('one never attached goes at once; one kept on a hypervisor is removed there, then gone with its room; twice is 404', async () => {
    const fresh = await volume();
    expect((await t.api('DELETE', `/volumes/${fresh.uuid}`)).status).toBe(204);
    expect((await t.api('GET', `/volumes/${fresh.uuid}`)).status).toBe(404);
    expect((await t.api('DELETE', `/volumes/${fresh.uuid}`)).status).toBe(404);

    const kept = await volume();
    const { id } = await t.instance();
    await attached(kept.uuid, id);
    const held = await t.api('DELETE', `/volumes/${kept.uuid}`);
    expect(held.status).toBe(409);
    expect(held.body.errors[0].code).toBe('SVC-INUSE-409');
    await action(kept.uuid, 'detach');
    await t.settled(id);
    await settledVolume(kept.uuid);
    const host = t.hostOf(id);
    const res = await t.api('DELETE', `/volumes/${kept.uuid}`);
    expect([202, 204]).toContain(res.status);
    if (res.status === 202) expect(res.body.attributes.state).toBe('deleting');
    await eventually(
      async () => ((await t.api('GET', `/volumes/${kept.uuid}`)).status === 404 ? true : undefined),
      20_000,
      'the volume to go',
    );
    expect(host.hypervisor().volumes?.[kept.uuid]).toBeUndefined();
    expect(
      await t.env.db.selectFrom('reservations').select('id').where('volume_id', '=', kept.uuid).execute(),
    ).toEqual([]);
  });

  it('a hypervisor that fails the removal leaves the volume available; two deletes at once end in one volume gone', async () => {
    const v = await volume();
    const { id } = await t.instance();
    await attached(v.uuid, id);
    await action(v.uuid, 'detach');
    await t.settled(id);
    await settledVolume(v.uuid);
    t.hostOf(id).armFault('volume.delete', { mode: 'fail-permanently' });
    expect((await t.api('DELETE', `/volumes/${v.uuid}`)).status).toBe(202);
    expect(await settledVolume(v.uuid)).toMatchObject({ state: 'available' });
    expect(t.hostOf(id).hypervisor().volumes?.[v.uuid]).toBeDefined();
    const both = await Promise.all([0, 1].map(() => t.api('DELETE', `/volumes/${v.uuid}`)));
    for (const r of both) expect([202, 204, 404]).toContain(r.status);
    await eventually(
      async () => ((await t.api('GET', `/volumes/${v.uuid}`)).status === 404 ? true : undefined),
      20_000,
      'the volume to go',
    );
    expect(
      (await t.env.stranger.call('DELETE', `/api/client/cloud/volumes/${(await volume()).uuid}`)).status,
    ).toBe(404);
  });
});
