import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { askGuest } from '../../agent/drivers/qemu/guests/guest-channel.js';
import { eventually } from '../support/eventually.js';
import { type QemuHost, qemuHosts, stoppedCount, ticksPast } from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A real guest's root disk grown through the Client API, running and stopped: the guest itself
 * says how big its disk is (over its channel, from /sys/block), and its count goes on throughout.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/root-disk skipped: ${missing}`);

const MIB = 1024 * 1024;

describe.runIf(!missing)('the root disk of a QEMU guest', () => {
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

  /** The size of the guest's root disk (vda) as the guest sees it, in bytes. */
  const rootSeen = async (host: QemuHost, instanceId: string) => {
    const answer = await askGuest(
      host.state().instances[instanceId]!.dir,
      { verb: 'disks', user: '-', argument: '-' },
      { timeoutMs: 60_000 },
    );
    expect(answer.ok, answer.detail).toBe(true);
    return Number(/(?:^|,)vda=(\d+)/.exec(answer.detail)?.[1]);
  };
  const grow = async (instanceId: string, sizeMb: number) => {
    const res = await env.client.call('POST', `/api/client/cloud/${instanceId}/storage/root/resize`, {
      size_mb: sizeMb,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await env.operationResult(instanceId);
  };

  it('grows under a running guest, which sees the new size at once and counts on; grown while stopped, it boots with the larger disk', async () => {
    const host = await hosts.host((await seed.location(env.db)).id);
    const instance = await hosts.instanceOn(host);
    const { plan } = await seed.catalog(env.db);
    await env.db.updateTable('instances').set({ plan_id: plan.id }).where('id', '=', instance.id).execute();
    await ticksPast(host, instance.id, 2);
    expect(await rootSeen(host, instance.id)).toBe(64 * MIB);

    await grow(instance.id, 128);
    expect(await rootSeen(host, instance.id)).toBe(128 * MIB);
    const before = Math.max(...host.ticks(instance.id));
    await ticksPast(host, instance.id, before + 1);
    expect(host.console(instance.id).split('guest: booted')).toHaveLength(2);
    expect(host.state().instances[instance.id]!.disk_mb).toBe(128);

    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    const stoppedAt = stoppedCount(host.console(instance.id));
    await grow(instance.id, 192);
    expect((await env.power(instance.id, 'start')).status).toBe(202);
    await env.operationResult(instance.id);
    await ticksPast(host, instance.id, stoppedAt + 1);
    await eventually(
      async () => ((await rootSeen(host, instance.id)) === 192 * MIB ? true : undefined),
      30_000,
      'the booted guest to see 192 MiB',
    );
  }, 240_000);
});
