import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { volumeFile } from '../../agent/drivers/qemu/disks/volume-slots.js';
import { askGuest } from '../../agent/drivers/qemu/guests/guest-channel.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { Qmp } from '../../agent/drivers/qemu/guests/qmp.js';
import type { MigrationMode } from '../../domain/migrations/states.js';
import { requestMigration } from '../../services/migrations/request.js';
import { eventually } from '../support/eventually.js';
import { migrationEnd } from '../support/migrations.js';
import {
  type QemuHost,
  type qemuHosts,
  startQemuMigrationStack,
  stopQemuStack,
  ticksPast,
} from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import type { Stack } from '../support/stack.js';

/**
 * A real guest's volume moves with it, live and cold: the guest on each host sees the disk in its
 * slot, what was written through the guest's own device before each move is in the volume's file
 * at the end, and the old host keeps no copy.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/volume-migration skipped: ${missing}`);

const MIB = 1024 * 1024;
const run = promisify(execFile);

describe.runIf(!missing)('a QEMU guest’s volume moving with it', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  let admin: { type: 'admin'; userId: string };
  beforeAll(async () => {
    ({ env, hosts } = await startQemuMigrationStack(0));
    admin = { type: 'admin', userId: (await seed.user(env.db, { admin: true })).id };
  });
  afterAll(() => stopQemuStack({ env, hosts }));

  const client = (method: string, path: string, body?: unknown) =>
    env.client.call(method, `/api/client/cloud${path}`, body);

  /** Through the guest's device for the volume in slot 1 (the monitor's qemu-io: as the guest writes). */
  const throughDevice = (host: QemuHost, instanceId: string, command: string) =>
    Qmp.with(guestFiles(host.state().instances[instanceId]!.dir).qmp, (qmp) =>
      qmp.execute<string>('human-monitor-command', {
        'command-line': `qemu-io -d /machine/peripheral/vol1/virtio-backend "${command}"`,
      }),
    );

  /** The guest's disks besides its root and its seed, by size in MiB, as the guest itself sees them. */
  const volumesSeen = async (host: QemuHost, instanceId: string) => {
    const answer = await askGuest(
      host.state().instances[instanceId]!.dir,
      { verb: 'disks', user: '-', argument: '-' },
      { timeoutMs: 60_000 },
    );
    expect(answer.ok, answer.detail).toBe(true);
    return answer.detail
      .split(',')
      .filter((d) => !d.startsWith('vda=') && !d.startsWith('vdb='))
      .map((d) => Number(d.split('=')[1]) / MIB);
  };

  const moved = async (instanceId: string, to: QemuHost, mode: MigrationMode) => {
    const { workflowId } = await requestMigration(env.deps, admin, {
      instanceId,
      targetId: to.hypervisor.id,
      mode,
      correlationId: null,
    });
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
    expect(await hosts.placement(instanceId)).toEqual({ hypervisor_id: to.hypervisor.id, status: 'running' });
  };

  it('moves live and back cold with what the guest wrote to it, in its slot; the old host keeps no copy', async () => {
    const { source, target, instance } = await hosts.pair();
    const { code } = await env.db
      .selectFrom('locations')
      .select('code')
      .where('id', '=', source.hypervisor.location_id)
      .executeTakeFirstOrThrow();
    const made = await client('POST', '/volumes', { name: 'moving', location: code, size_mb: 1024 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const volumeId: string = made.body.attributes.uuid;
    expect((await client('POST', `/volumes/${volumeId}/attach`, { instance: instance.id })).status).toBe(202);
    await env.operationResult(instance.id);
    expect(source.state().volumes?.[volumeId]).toMatchObject({ instance_id: instance.id, slot: 1 });
    // The monitor answers nothing to a write that went through (and the error to one that did not).
    expect(await throughDevice(source, instance.id, 'write -P 0x5a 0 1M')).toBe('');

    for (const [from, to, mode] of [
      [source, target, 'LIVE_REQUIRED'],
      [target, source, 'COLD'],
    ] as const) {
      await moved(instance.id, to, mode);
      await ticksPast(to, instance.id, 1);
      expect(to.state().volumes?.[volumeId]).toMatchObject({
        instance_id: instance.id,
        slot: 1,
        size_mb: 1024,
      });
      await eventually(
        async () => ((await volumesSeen(to, instance.id)).includes(1024) ? true : undefined),
        60_000,
        'the guest to see its volume',
      );
      expect(from.state().volumes?.[volumeId]).toBeUndefined();
      expect(existsSync(volumeFile(from.agent.stateDir, volumeId))).toBe(false);
      // Written on the host it moved to: the next move must carry this too.
      if (to === target) expect(await throughDevice(target, instance.id, 'write -P 0xa5 1M 1M')).toBe('');
    }
    // Stopped, its file holds both writes: the one before the live move and the one after it.
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    const file = volumeFile(source.agent.stateDir, volumeId);
    for (const [pattern, offset] of [
      ['0x5a', '0'],
      ['0xa5', '1M'],
    ]) {
      const { stdout } = await run('qemu-io', [
        '-r',
        '-f',
        'qcow2',
        '-c',
        `read -P ${pattern} ${offset} 1M`,
        file,
      ]);
      expect(stdout).toContain('read 1048576/1048576 bytes');
      expect(stdout).not.toContain('Pattern verification failed');
    }
    const row = await env.db
      .selectFrom('volumes')
      .select(['hypervisor_id', 'instance_id', 'state'])
      .where('id', '=', volumeId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ hypervisor_id: source.hypervisor.id, instance_id: instance.id, state: 'attached' });
  }, 400_000);
});
