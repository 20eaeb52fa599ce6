import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { FAST_IMAGE, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import { eventually } from '../support/eventually.js';
import { createParams, qemuAccelerator, stopDrivers, taskContext } from '../support/qemu-hosts.js';

/**
 * Snapshots, backups and restores of a real guest, on the QEMU driver itself: the copies are of
 * the disk the guest writes its count to, so a restored guest counts on from where the copy was
 * taken, and a backup that is not what was written is refused.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/disk-artifacts skipped: ${missing}`);

describe.runIf(!missing)('snapshots, backups and restores of QEMU guests', () => {
  let driver: QemuDriver;
  let stateDir: string;
  const ctx = taskContext();
  const run = (type: string, params: Record<string, unknown>) =>
    driver.execute(type as AgentTaskType, params, ctx);

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'qemu-artifacts-'));
    driver = await QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: stateDir,
        AGENT_QEMU_STOP_TIMEOUT_MS: '20000',
        AGENT_QEMU_ACCEL: qemuAccelerator(),
      }),
    );
  });
  afterAll(() => {
    stopDrivers([driver]);
    rmSync(stateDir, { recursive: true, force: true });
  });

  const create = (instanceId: string, extra: Record<string, unknown> = {}) =>
    run('instance.create', createParams(instanceId, extra));
  const consoleOf = (id: string) => readFileSync(guestFiles(driver.guestDir(id)!).console, 'utf8');
  const ticksOf = (id: string) => [...consoleOf(id).matchAll(/^tick (\d+)$/gm)].map((m) => Number(m[1]));
  const lastTick = (id: string) => Math.max(0, ...ticksOf(id));
  const tickPast = (id: string, n: number) =>
    eventually(() => lastTick(id) > n, 60_000, `tick ${n + 1}`).catch((error: Error) => {
      throw new Error(`${error.message}; console:\n${consoleOf(id).slice(-1500)}`);
    });
  /** The ticks after the guest's latest boot. */
  const ticksOfLatestBoot = (id: string) =>
    [...(consoleOf(id).split('guest: booted').at(-1) ?? '').matchAll(/^tick (\d+)$/gm)].map((m) =>
      Number(m[1]),
    );

  it('a snapshot restored takes the guest back to its count at the snapshot; repeated tasks change nothing more', async () => {
    const id = randomUUID();
    await create(id);
    await tickPast(id, 2);

    const snapshotId = randomUUID();
    const before = lastTick(id);
    const taken = await run('snapshot.create', { instance_id: id, snapshot_id: snapshotId });
    const after = lastTick(id);
    expect(taken.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(await run('snapshot.create', { instance_id: id, snapshot_id: snapshotId })).toEqual(taken);
    await tickPast(id, after + 3);

    const restoreId = randomUUID();
    const staged = await run('snapshot.restore', {
      instance_id: id,
      snapshot_id: snapshotId,
      restore_id: restoreId,
    });
    expect(staged.checksum).toBe(taken.checksum);
    const ahead = lastTick(id);
    const swapped = await run('disk.swap', { instance_id: id, restore_id: restoreId });
    expect(swapped).toEqual({ power_state: 'running', checksum: taken.checksum });
    expect(await run('disk.swap', { instance_id: id, restore_id: restoreId })).toEqual(swapped);
    expect(consoleOf(id)).toContain('guest: shutting down');

    await eventually(
      () => consoleOf(id).split('guest: booted').length === 3 && ticksOfLatestBoot(id).length > 0,
      60_000,
      'a tick after the restore',
    );
    const first = ticksOfLatestBoot(id)[0]!;
    // Back to the moment of the snapshot, never where it had got to. The guest writes a count
    // before it prints it: the copy may hold one more than the console had shown.
    expect(first).toBeGreaterThanOrEqual(before + 1);
    expect(first).toBeLessThanOrEqual(after + 2);
    expect(first).toBeLessThan(ahead);
    expect(await run('disk.release', { instance_id: id, restore_id: restoreId })).toEqual({ released: true });
    expect(await run('disk.release', { instance_id: id, restore_id: restoreId })).toEqual({
      released: false,
    });
    expect(await run('snapshot.delete', { instance_id: id, snapshot_id: snapshotId })).toEqual({
      deleted: true,
    });
  }, 180_000);

  it('a rebuild writes the disk anew from the image, once: the guest counts from 1 again', async () => {
    const id = randomUUID();
    await create(id);
    await tickPast(id, 2);
    const rebuild = {
      instance_id: id,
      rebuild_id: randomUUID(),
      image: FAST_IMAGE,
      hostname: 'guest.example.test',
      timezone: 'UTC',
      root_password: 'not-used-by-this-guest',
      ssh_keys: [],
      start: true,
    };
    expect(await run('instance.rebuild', rebuild)).toEqual({ power_state: 'running' });
    await eventually(
      () => consoleOf(id).split('guest: booted').length === 3 && ticksOfLatestBoot(id).length > 0,
      60_000,
      'a tick after the rebuild',
    );
    expect(ticksOfLatestBoot(id)[0]).toBe(1);
    // Delivered again (an agent restarted mid-task): the disk is not written a second time.
    const countsPast = (n: number) =>
      eventually(() => (ticksOfLatestBoot(id).at(-1) ?? 0) > n, 30_000, `a count past ${n}`);
    await countsPast(1);
    const counted = ticksOfLatestBoot(id).at(-1)!;
    expect(await run('instance.rebuild', rebuild)).toEqual({ power_state: 'running' });
    await countsPast(counted);
    expect(consoleOf(id).split('guest: booted')).toHaveLength(3);
  }, 180_000);

  it('a backup is read back intact, makes a new instance that counts on, and is refused once it is not what was written', async () => {
    const id = randomUUID();
    await create(id);
    await tickPast(id, 2);
    const backupId = randomUUID();
    const written = await run('backup.create', { instance_id: id, backup_id: backupId });
    const count = lastTick(id);
    expect(await run('backup.verify', { instance_id: id, backup_id: backupId })).toEqual(written);

    const copy = randomUUID();
    await create(copy, { from_backup: { backup_id: backupId, checksum: written.checksum } });
    await eventually(() => ticksOf(copy).length > 0, 60_000, 'the copy to tick');
    // The copy counts on from the backup's count, not from 1.
    expect(ticksOf(copy)[0]!).toBeGreaterThan(1);
    expect(ticksOf(copy)[0]!).toBeLessThanOrEqual(count + 2);

    const damaged = randomUUID();
    await expect(
      create(damaged, { from_backup: { backup_id: backupId, checksum: '0'.repeat(64) } }),
    ).rejects.toMatchObject({ code: 'BACKUP_CORRUPT' });
    expect(await run('backup.delete', { instance_id: id, backup_id: backupId })).toEqual({ deleted: true });
    await expect(run('backup.verify', { instance_id: id, backup_id: backupId })).rejects.toMatchObject({
      code: 'BACKUP_NOT_FOUND',
    });
  }, 180_000);
});
