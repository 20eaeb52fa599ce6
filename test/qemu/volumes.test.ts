import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { askGuest } from '../../agent/drivers/qemu/guests/guest-channel.js';
import { eventually } from '../support/eventually.js';
import { type QemuHost, qemuHosts, stoppedCount, ticksPast } from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A customer's volume on a real guest through the Client API: hot-plugged into the running guest,
 * grown under it and taken out again, and a stopped guest booting with one. The guest itself says
 * which disks it has and how big (over its channel, from /sys/block), and its count goes on.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/volumes skipped: ${missing}`);

const MIB = 1024 * 1024;

describe.runIf(!missing)('volumes on a QEMU guest', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  beforeAll(async () => {
    env = await startStack({ agents: true });
    hosts = qemuHosts(env);
  });
  afterAll(async () => {
    hosts?.killGuests();
    await env?.close();
  });

  /** The guest's virtio disks as it sees them: name → bytes. */
  const disksSeen = async (host: QemuHost, instanceId: string): Promise<Record<string, number>> => {
    const answer = await askGuest(
      host.state().instances[instanceId]!.dir,
      { verb: 'disks', user: '-', argument: '-' },
      { timeoutMs: 60_000 },
    );
    expect(answer.ok, answer.detail).toBe(true);
    return Object.fromEntries(
      answer.detail.split(',').map((d) => [d.split('=')[0], Number(d.split('=')[1])]),
    );
  };
  /** The guest's disks besides its root and its seed: the volumes, by size. */
  const volumesSeen = async (host: QemuHost, instanceId: string) =>
    Object.entries(await disksSeen(host, instanceId))
      .filter(([name]) => name !== 'vda' && name !== 'vdb')
      .map(([, bytes]) => bytes / MIB);
  const client = (method: string, path: string, body?: unknown) =>
    env.client.call(method, `/api/client/cloud${path}`, body);
  const volume = async (locationCode: string, sizeMb: number): Promise<string> => {
    const res = await client('POST', '/volumes', {
      name: `data-${sizeMb}`,
      location: locationCode,
      size_mb: sizeMb,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.attributes.uuid;
  };
  const act = async (instanceId: string, volumeId: string, verb: string, body?: unknown) => {
    const res = await client('POST', `/volumes/${volumeId}/${verb}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await env.operationResult(instanceId);
  };

  it('a running guest sees a volume come, grow and go at once, and counts on throughout; a stopped one boots with it', async () => {
    const location = await seed.location(env.db);
    const host = await hosts.host(location.id);
    const instance = await hosts.instanceOn(host);
    await ticksPast(host, instance.id, 2);
    expect(await volumesSeen(host, instance.id)).toEqual([]);

    const data = await volume(location.code, 1024);
    await act(instance.id, data, 'attach', { instance: instance.id });
    await eventually(
      async () => ((await volumesSeen(host, instance.id)).includes(1024) ? true : undefined),
      30_000,
      'the guest to see the volume',
    );
    await act(instance.id, data, 'resize', { size_mb: 1536 });
    expect(await volumesSeen(host, instance.id)).toEqual([1536]);
    const before = Math.max(...host.ticks(instance.id));
    await ticksPast(host, instance.id, before + 1);
    expect(host.console(instance.id).split('guest: booted')).toHaveLength(2);

    await act(instance.id, data, 'detach');
    await eventually(
      async () => ((await volumesSeen(host, instance.id)).length === 0 ? true : undefined),
      30_000,
      'the guest to let go of the volume',
    );
    expect(host.state().volumes?.[data]).toMatchObject({ size_mb: 1536, instance_id: null, slot: null });

    // Stopped, it takes the volume at its next boot.
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    const stoppedAt = stoppedCount(host.console(instance.id));
    await act(instance.id, data, 'attach', { instance: instance.id });
    expect((await env.power(instance.id, 'start')).status).toBe(202);
    await env.operationResult(instance.id);
    await ticksPast(host, instance.id, stoppedAt + 1);
    await eventually(
      async () => ((await volumesSeen(host, instance.id)).includes(1536) ? true : undefined),
      30_000,
      'the booted guest to see the volume',
    );
  }, 240_000);
});
