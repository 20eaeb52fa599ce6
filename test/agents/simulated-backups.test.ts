import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { SimulatedDriver } from '../../agent/drivers/simulated/driver.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';

/**
 * The simulated hypervisor's disks, backups and snapshots: content with a checksum, restores that
 * really bring a disk back, faults that damage an artifact, and every handler idempotent.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

function newDriver(backupDir = tempDir('backups-')) {
  const config = loadAgentConfig({
    AGENT_PANEL_URL: 'http://127.0.0.1:1',
    AGENT_STATE_DIR: tempDir('simulated-'),
    AGENT_SIM_LATENCY_MS: '{"default":0}',
    AGENT_SIM_BACKUP_DIR: backupDir,
  });
  return new SimulatedDriver(config);
}

/** These tasks need no panel: a call to it would be a test bug. */
const noPanel = () => Promise.reject(new Error('no panel in this test'));
const idle = { signal: new AbortController().signal, progress: () => {}, redeemTransfer: noPanel };
const run = (driver: SimulatedDriver, type: AgentTaskType, params: object) =>
  driver.execute(type, params, idle);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function createdInstance(driver: SimulatedDriver, extra: object = {}) {
  const instanceId = randomUUID();
  await run(driver, 'instance.create', {
    instance_id: instanceId,
    hostname: 'web-1.example.test',
    timezone: 'UTC',
    root_password: 'secret-password',
    ssh_keys: [],
    cpu_cores: 1,
    memory_mb: 512,
    disk_mb: 1024,
    image: 'debian-12',
    boot_order: ['disk'],
    ipv4: null,
    ipv6: null,
    start: true,
    ...extra,
  });
  return instanceId;
}

const diskOf = (driver: SimulatedDriver, instanceId: string) =>
  driver.snapshot().instances[instanceId]!.disk!;

describe('disks and backups', () => {
  it('a backup holds the disk’s content; a restart writes the disk; a restore brings it back', async () => {
    const driver = newDriver();
    const instanceId = await createdInstance(driver);
    const before = diskOf(driver, instanceId);
    const backupId = randomUUID();
    const written = await run(driver, 'backup.create', { instance_id: instanceId, backup_id: backupId });
    expect(written).toEqual({ size_mb: 128, checksum: sha256(before) });

    await run(driver, 'instance.power', { instance_id: instanceId, action: 'restart' });
    expect(diskOf(driver, instanceId)).not.toBe(before);

    const restore = { instance_id: instanceId, restore_id: randomUUID() };
    const staged = await run(driver, 'backup.restore', { ...restore, backup_id: backupId });
    expect(staged.checksum).toBe(sha256(before));
    // Staged beside the current disk: nothing changed yet.
    expect(diskOf(driver, instanceId)).not.toBe(before);
    expect(await run(driver, 'disk.swap', restore)).toEqual({
      power_state: 'running',
      checksum: sha256(before),
    });
    expect(diskOf(driver, instanceId)).toBe(before);
    expect(await run(driver, 'disk.release', restore)).toEqual({ released: true });
    expect(driver.snapshot().instances[instanceId]!.restores).toEqual({});
  });

  it('a revert after the swap puts the old disk back and drops the restored one', async () => {
    const driver = newDriver();
    const instanceId = await createdInstance(driver);
    const backupId = randomUUID();
    await run(driver, 'backup.create', { instance_id: instanceId, backup_id: backupId });
    await run(driver, 'instance.power', { instance_id: instanceId, action: 'restart' });
    const current = diskOf(driver, instanceId);
    const restore = { instance_id: instanceId, restore_id: randomUUID() };
    await run(driver, 'backup.restore', { ...restore, backup_id: backupId });
    await run(driver, 'disk.swap', restore);
    expect(await run(driver, 'disk.revert', restore)).toEqual({ reverted: true });
    expect(diskOf(driver, instanceId)).toBe(current);
    expect(await run(driver, 'disk.revert', restore)).toEqual({ reverted: false });
  });

  it('every backup and snapshot task run twice leaves the hypervisor as once', async () => {
    const driver = newDriver();
    const instanceId = await createdInstance(driver);
    const backupId = randomUUID();
    const snapshotId = randomUUID();
    const restore = { instance_id: instanceId, restore_id: randomUUID() };
    const steps: [AgentTaskType, object][] = [
      ['backup.create', { instance_id: instanceId, backup_id: backupId }],
      ['snapshot.create', { instance_id: instanceId, snapshot_id: snapshotId }],
      ['backup.verify', { instance_id: instanceId, backup_id: backupId }],
      ['instance.power', { instance_id: instanceId, action: 'stop' }],
      ['snapshot.restore', { ...restore, snapshot_id: snapshotId }],
      ['disk.swap', restore],
      ['disk.release', restore],
      ['snapshot.delete', { instance_id: instanceId, snapshot_id: snapshotId }],
      ['backup.delete', { instance_id: instanceId, backup_id: backupId }],
    ];
    for (const [type, params] of steps) {
      const first = await run(driver, type, params);
      const state = driver.snapshot();
      const store = driver.backupStore();
      const second = await run(driver, type, params);
      expect({ type, ...state.instances[instanceId] }, type).toEqual({
        type,
        ...driver.snapshot().instances[instanceId],
      });
      expect(driver.backupStore(), type).toEqual(store);
      expect(driver.snapshot().applied).toHaveLength(state.applied.length);
      if (!['disk.release', 'snapshot.delete', 'backup.delete'].includes(type))
        expect(second, type).toEqual(first);
    }
  });

  it('the `corrupt` fault damages a backup: verify reports another checksum, a restore from it is refused', async () => {
    const driver = newDriver();
    const instanceId = await createdInstance(driver);
    const backupId = randomUUID();
    driver.armFault('backup.create', { mode: 'corrupt' });
    const written = await run(driver, 'backup.create', { instance_id: instanceId, backup_id: backupId });
    // The checksum reported is the one computed while writing; the store then rotted.
    expect(written.checksum).toBe(sha256(diskOf(driver, instanceId)));
    const read = await run(driver, 'backup.verify', { instance_id: instanceId, backup_id: backupId });
    expect(read.checksum).not.toBe(written.checksum);
    await expect(
      createdInstance(driver, { from_backup: { backup_id: backupId, checksum: written.checksum } }),
    ).rejects.toMatchObject({ code: 'BACKUP_CORRUPT', retryable: false });
  });

  it('the backup store is the location’s: another hypervisor creates an instance from it', async () => {
    const store = tempDir('store-');
    const first = newDriver(store);
    const second = newDriver(store);
    const instanceId = await createdInstance(first);
    await run(first, 'instance.power', { instance_id: instanceId, action: 'restart' });
    const backupId = randomUUID();
    const written = await run(first, 'backup.create', { instance_id: instanceId, backup_id: backupId });
    const copy = await createdInstance(second, {
      from_backup: { backup_id: backupId, checksum: written.checksum },
    });
    expect(diskOf(second, copy)).toBe(diskOf(first, instanceId));
    await expect(
      createdInstance(second, { from_backup: { backup_id: randomUUID(), checksum: written.checksum } }),
    ).rejects.toMatchObject({ code: 'BACKUP_NOT_FOUND', retryable: false });
  });
});
