import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { volumeFile } from '../../agent/drivers/qemu/disks/volume-slots.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { Qmp } from '../../agent/drivers/qemu/guests/qmp.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import { eventually } from '../support/eventually.js';
import type { QemuHost, qemuHosts } from '../support/qemu-hosts.js';
import { startQemuMigrationStack, stopQemuStack, ticksPast } from '../support/qemu-hosts.js';
import type { Stack } from '../support/stack.js';

/**
 * A running guest moved live to another host and straight back (issue 47 item 7), its count going
 * on throughout: the first host still holds the copy the first move retains (a day, as in
 * production), and that copy stays beside the arriving guest until the move back commits.
 */
const run = promisify(execFile);
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu skipped: ${missing}`);

describe.runIf(!missing)('a QEMU guest moved back at once', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  beforeAll(async () => {
    ({ env, hosts } = await startQemuMigrationStack(86_400_000));
  });
  afterAll(() => stopQemuStack({ env, hosts }));

  /** A live move through the admin API; the run's id and workflow. */
  async function requested(instanceId: string, to: QemuHost) {
    const answer = await env.call(env.admin, 'POST', `/admin/cloudsvc/instances/${instanceId}/migrations`, {
      target_hypervisor_uuid: to.hypervisor.id,
      mode: 'LIVE_REQUIRED',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    return answer.body.attributes as { uuid: string; workflow_id: string; warnings: { code: string }[] };
  }

  /** Through the guest's device for the volume in slot 1 (the monitor's qemu-io: as the guest reads and writes). */
  const throughDevice = (host: QemuHost, instanceId: string, command: string) =>
    Qmp.with(guestFiles(host.state().instances[instanceId]!.dir).qmp, (qmp) =>
      qmp.execute<string>('human-monitor-command', {
        'command-line': `qemu-io -d /machine/peripheral/vol1/virtio-backend "${command}"`,
      }),
    );

  /** A volume of the customer attached to the running guest. */
  async function attachedVolume(host: QemuHost, instanceId: string): Promise<string> {
    const { code } = await env.db
      .selectFrom('locations')
      .select('code')
      .where('id', '=', host.hypervisor.location_id)
      .executeTakeFirstOrThrow();
    const made = await env.client.call('POST', '/api/client/cloud/volumes', {
      name: 'moving-back',
      location: code,
      size_mb: 1024,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const volumeId: string = made.body.attributes.uuid;
    const attach = await env.client.call('POST', `/api/client/cloud/volumes/${volumeId}/attach`, {
      instance: instanceId,
    });
    expect(attach.status).toBe(202);
    await env.operationResult(instanceId);
    return volumeId;
  }

  it('goes there live and back live at once, counting on; the first copy (its volume too) stays until the move back commits', async () => {
    const { source: a, target: b, instance } = await hosts.pair();
    const retainedDir = a.state().instances[instance.id]!.dir;
    const volumeId = await attachedVolume(a, instance.id);
    expect(await throughDevice(a, instance.id, 'write -P 0x5a 0 1M')).toBe('');

    const first = await requested(instance.id, b);
    expect(await env.temporal.workflow.getHandle(first.workflow_id).result()).toEqual({ state: 'COMPLETED' });
    const lastOnA = Math.max(...a.ticks(instance.id));
    expect((await ticksPast(b, instance.id, lastOnA + 1))[0]).toBe(lastOnA + 1);
    expect(a.state().exports[first.uuid]).toBeDefined();
    expect(existsSync(retainedDir)).toBe(true);
    // Written on B: the move back must carry it, beside A's older copy of the volume.
    expect(await throughDevice(b, instance.id, 'write -P 0xa5 1M 1M')).toBe('');
    const keptVolume = join(a.agent.stateDir, 'exports', `${first.uuid}-kept-${volumeId}.qcow2`);

    const back = await requested(instance.id, a);
    expect(back.warnings.map((w) => w.code)).toContain('RETAINED_COPY_REPLACED');
    // Until the move back commits, the first move's copy is where it was and its migration COMPLETED.
    const handle = env.temporal.workflow.getHandle(back.workflow_id);
    let committed = false;
    const ended = handle.result().finally(() => {
      committed = true;
    });
    const seen: { state: string | undefined; retained: boolean; volumeKept: boolean }[] = [];
    while (!committed) {
      const state = (await findMigration(env.db, back.uuid))?.state;
      if (state === 'COMPLETED') break;
      seen.push({
        state,
        retained: existsSync(retainedDir) && a.state().exports[first.uuid] !== undefined,
        volumeKept: existsSync(keptVolume),
      });
      expect((await findMigration(env.db, first.uuid))?.state).toBe('COMPLETED');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await ended).toEqual({ state: 'COMPLETED' });
    expect(seen.map((s) => s.state)).toContain('LIVE_MIGRATING');
    expect(seen.every((s) => s.retained)).toBe(true);
    // From the arrival's preparation on, A's old file of the volume is kept apart from the arriving one.
    expect(seen.filter((s) => s.state === 'LIVE_MIGRATING').every((s) => s.volumeKept)).toBe(true);

    // Then it goes, and only it: the guest runs on A from its own directory, counting on, never booted.
    await eventually(
      async () => (await findMigration(env.db, first.uuid))?.state === 'CLEANED_UP',
      120_000,
      'the first move’s copy removed once the move back committed',
    );
    expect(existsSync(retainedDir)).toBe(false);
    expect(a.state().exports[first.uuid]).toBeUndefined();
    expect(existsSync(keptVolume)).toBe(false);
    expect(a.state().volumes?.[volumeId]).toMatchObject({ instance_id: instance.id, slot: 1 });
    const arrivedDir = a.state().instances[instance.id]!.dir;
    expect(arrivedDir).not.toBe(retainedDir);
    const lastOnB = Math.max(...b.ticks(instance.id));
    const onA = await ticksPast(a, instance.id, lastOnB + 1);
    expect(onA[0]).toBe(lastOnB + 1);
    expect(a.console(instance.id)).not.toContain('guest: booted');
    expect(a.guestRunning(instance.id)).toBe(true);
    expect(await hosts.placement(instance.id)).toEqual({ hypervisor_id: a.hypervisor.id, status: 'running' });
    // B keeps the move back's copy for its own window.
    expect(b.state().exports[back.uuid]).toBeDefined();

    // Stopped, the volume's file on A holds both writes: the one before the first move and the one on B.
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
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
        volumeFile(a.agent.stateDir, volumeId),
      ]);
      expect(stdout).toContain('read 1048576/1048576 bytes');
      expect(stdout).not.toContain('Pattern verification failed');
    }
  }, 600_000);
});
