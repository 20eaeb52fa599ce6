import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { askGuest } from '../../agent/drivers/qemu/guests/guest-channel.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import {
  type qemuHosts,
  startQemuMigrationStack,
  stoppedCount,
  stopQemuStack,
  ticksPast,
} from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import type { Stack } from '../support/stack.js';

/**
 * A real guest's root disk moved between two directories standing for two storage backends
 * (`local`, its own directory; `nfs`, AGENT_STATE_DIR/backends/nfs), live: the guest counts on
 * throughout and never boots again; stopped and started, it boots from the moved disk; the old file
 * goes after the retention window.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/storage-move skipped: ${missing}`);

describe.runIf(!missing)('a storage move of a QEMU guest', () => {
  const stack: { env?: Stack; hosts?: ReturnType<typeof qemuHosts> } = {};
  beforeAll(async () => Object.assign(stack, await startQemuMigrationStack(300)));
  afterAll(() => stopQemuStack(stack));

  const call = (method: string, path: string, body?: unknown) =>
    stack.env!.call(stack.env!.admin, method, `/admin/cloudsvc${path}`, body);

  async function moved(instanceId: string, from: string, to: string) {
    const answer = await call('POST', `/instances/${instanceId}/storage-moves`, {
      from_backend: from,
      to_backend: to,
      mode: 'LIVE_REQUIRED',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const move = answer.body.attributes as Body;
    return eventually(
      async () => {
        const { body } = await call('GET', `/storage-moves/${move.uuid}`);
        if (['ROLLED_BACK', 'RECOVERY_REQUIRED'].includes(body.attributes.state))
          throw new Error(
            `the move ended ${body.attributes.state}: ${JSON.stringify(body.attributes.failure)}`,
          );
        return body.attributes.state === 'CLEANED_UP' ? (body.attributes as Body) : undefined;
      },
      120_000,
      `storage move ${from} → ${to}`,
    );
  }

  it('mirrors a running guest’s disk to the other backend and switches it while it counts on, and back', async () => {
    const { env, hosts } = stack as Required<typeof stack>;
    const host = await hosts.host((await seed.location(env.db)).id);
    await updateHypervisor(env.db, host.hypervisor.id, { storageBackends: ['local', 'nfs'] });
    const instance = await hosts.instanceOn(host);
    await ticksPast(host, instance.id, 2);
    const dir = host.state().instances[instance.id]!.dir;
    const disk = guestFiles(dir).disk;
    const onNfs = join(host.agent.stateDir, 'backends', 'nfs', instance.id, 'disk.qcow2');

    const before = Math.max(...host.ticks(instance.id));
    const there = await moved(instance.id, 'local', 'nfs');
    expect(there.strategy).toBe('live');
    expect(lstatSync(disk).isSymbolicLink()).toBe(true);
    expect(readlinkSync(disk)).toBe(onNfs);
    await ticksPast(host, instance.id, before + 3);
    expect(host.guestRunning(instance.id)).toBe(true);
    const ticks = host.ticks(instance.id);
    // Counted on: every tick once, in order, and a single boot.
    expect(ticks).toEqual(Array.from({ length: ticks.length }, (_, i) => ticks[0]! + i));
    expect(host.console(instance.id).split('guest: booted')).toHaveLength(2);
    expect(host.state().instances[instance.id]!.storage_moves ?? {}).toEqual({});
    expect(existsSync(`${disk}.old-${there.uuid.slice(0, 8)}`)).toBe(false);

    // Stopped and started, it boots from the disk on its new backend and counts on from where it stopped.
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    const stoppedAt = stoppedCount(host.console(instance.id));
    expect((await env.power(instance.id, 'start')).status).toBe(202);
    await env.operationResult(instance.id);
    await ticksPast(host, instance.id, stoppedAt + 1);
    expect(host.console(instance.id).split('guest: booted')).toHaveLength(3);

    const middle = Math.max(...host.ticks(instance.id));
    await moved(instance.id, 'nfs', 'local');
    expect(lstatSync(disk).isSymbolicLink()).toBe(false);
    expect(existsSync(onNfs)).toBe(false);
    await ticksPast(host, instance.id, middle + 3);
    expect(host.console(instance.id).split('guest: booted')).toHaveLength(3);
    const placed = await env.db
      .selectFrom('instances')
      .select(['storage_backend', 'status'])
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow();
    expect(placed).toEqual({ storage_backend: 'local', status: 'running' });
  }, 300_000);

  it('moves a volume in a running guest with its root disk; the guest sees it grow and go after', async () => {
    const { env, hosts } = stack as Required<typeof stack>;
    const location = await seed.location(env.db);
    const host = await hosts.host(location.id);
    await updateHypervisor(env.db, host.hypervisor.id, { storageBackends: ['local', 'nfs'] });
    const instance = await hosts.instanceOn(host);
    await ticksPast(host, instance.id, 2);
    const client = (method: string, path: string, body?: unknown) =>
      env.client.call(method, `/api/client/cloud${path}`, body);
    const created = await client('POST', '/volumes', {
      name: 'data',
      location: location.code,
      size_mb: 1024,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const volumeId: string = created.body.attributes.uuid;
    const act = async (verb: string, body?: unknown) => {
      const res = await client('POST', `/volumes/${volumeId}/${verb}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      await env.operationResult(instance.id);
    };
    const volumesSeen = async () => {
      const answer = await askGuest(
        host.state().instances[instance.id]!.dir,
        { verb: 'disks', user: '-', argument: '-' },
        { timeoutMs: 60_000 },
      );
      expect(answer.ok, answer.detail).toBe(true);
      return answer.detail
        .split(',')
        .filter((d) => !d.startsWith('vda=') && !d.startsWith('vdb='))
        .map((d) => Number(d.split('=')[1]) / (1024 * 1024));
    };
    await act('attach', { instance: instance.id });
    await eventually(
      async () => ((await volumesSeen()).includes(1024) ? true : undefined),
      30_000,
      'the volume seen',
    );

    const before = Math.max(...host.ticks(instance.id));
    const move = await moved(instance.id, 'local', 'nfs');
    expect(move.disks.map((d: Body) => d.disk).sort()).toEqual(['root', `volume-${volumeId}`].sort());
    const file = join(host.agent.stateDir, 'volumes', `${volumeId}.qcow2`);
    expect(readlinkSync(file)).toBe(
      join(host.agent.stateDir, 'backends', 'nfs', 'volumes', `${volumeId}.qcow2`),
    );
    await ticksPast(host, instance.id, before + 2);
    expect(host.console(instance.id).split('guest: booted')).toHaveLength(2);

    // On its new node, the volume still grows under the guest, and leaves it.
    await act('resize', { size_mb: 1536 });
    expect(await volumesSeen()).toEqual([1536]);
    await act('detach');
    expect(await volumesSeen()).toEqual([]);
    const deleted = await client('DELETE', `/volumes/${volumeId}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(202);
    await eventually(
      async () =>
        !existsSync(join(host.agent.stateDir, 'backends', 'nfs', 'volumes', `${volumeId}.qcow2`))
          ? true
          : undefined,
      30_000,
      'the volume’s file on nfs removed',
    );
  }, 300_000);
});
