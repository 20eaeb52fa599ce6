import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import { volumeDisk } from '../../domain/migrations/disks.js';
import { createParams, qemuAccelerator, stopDrivers, taskContext } from '../support/qemu-hosts.js';

/**
 * What a QEMU source offers a migration, on the driver itself: a volume's copy beside the root
 * disk's, behind the same secret, and nothing left once the offer is withdrawn (a rollback).
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/offered-disks skipped: ${missing}`);

describe.runIf(!missing)('disks a QEMU source offers', () => {
  let driver: QemuDriver;
  let stateDir: string;
  const ctx = taskContext();
  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'qemu-offers-'));
    driver = await QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: stateDir,
        AGENT_QEMU_ACCEL: qemuAccelerator(),
      }),
    );
  });
  afterAll(() => {
    stopDrivers([driver]);
    rmSync(stateDir, { recursive: true, force: true });
  });

  const run = (type: string, params: Record<string, unknown>) =>
    driver.execute(type as AgentTaskType, params, ctx);
  const exported = () =>
    existsSync(join(stateDir, 'exports')) ? readdirSync(join(stateDir, 'exports')) : [];

  it('offers a volume beside the root disk under the same secret; withdrawn, the copies are gone and nothing is served, twice alike', async () => {
    const instanceId = randomUUID();
    const volumeId = randomUUID();
    await run('instance.create', createParams(instanceId, { start: false }));
    await run('volume.create', { volume_id: volumeId, size_mb: 64 });
    const on = { migration_id: randomUUID(), instance_id: instanceId };

    // A volume is offered only with the root disk, and only one on the instance.
    await expect(run('disk.export', { ...on, disk: volumeDisk(volumeId) })).rejects.toMatchObject({
      code: 'MIGRATION_NOT_EXPORTED',
    });
    const root = (await run('disk.export', { ...on, disk: 'root' })) as { endpoint: string };
    await expect(run('disk.export', { ...on, disk: volumeDisk(volumeId) })).rejects.toMatchObject({
      code: 'VOLUME_NOT_FOUND',
    });
    await run('volume.attach', { volume_id: volumeId, instance_id: instanceId });
    const volume = (await run('disk.export', { ...on, disk: volumeDisk(volumeId) })) as {
      endpoint: string;
      checksum: string;
    };
    expect(volume.endpoint).toBe(root.endpoint);
    expect(exported()).toHaveLength(2);
    const served = await fetch(`${volume.endpoint}/volumes/${volumeId}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-checksum')).toBe(volume.checksum);
    await served.body?.cancel();
    expect((await fetch(`${volume.endpoint}/volumes/${randomUUID()}`)).status).toBe(403);

    expect(await run('disk.withdraw', on)).toEqual({ withdrawn: true });
    expect(await run('disk.withdraw', on)).toEqual({ withdrawn: false });
    expect(exported()).toEqual([]);
    for (const path of ['disk', `volumes/${volumeId}`])
      expect((await fetch(`${root.endpoint}/${path}`)).status).toBe(403);
    // The guest and its volume stay as they were.
    expect(existsSync(join(stateDir, 'volumes', `${volumeId}.qcow2`))).toBe(true);
    expect(await run('instance.state', { instance_id: instanceId })).toEqual({ power_state: 'stopped' });
  }, 120_000);
});
