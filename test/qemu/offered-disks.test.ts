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
import { channelAnswer, keyed, testTransportKey } from '../support/move-transport.js';
import { createParams, qemuAccelerator, stopDrivers, taskContext } from '../support/qemu-hosts.js';

/**
 * What a QEMU source offers a migration, on the driver itself: a volume's copy beside the root
 * disk's, under the same transport key, and nothing left once the offer is withdrawn (a rollback):
 * not even a handshake for the move's key.
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

  it('offers a volume beside the root disk under the same key; withdrawn, the copies are gone and the key opens nothing, twice alike', async () => {
    const instanceId = randomUUID();
    const volumeId = randomUUID();
    await run('instance.create', createParams(instanceId, { start: false }));
    await run('volume.create', { volume_id: volumeId, size_mb: 64 });
    const on = { migration_id: randomUUID(), instance_id: instanceId };
    const key = testTransportKey();
    const move = { migrationId: on.migration_id, key };

    // A volume is offered only with the root disk, and only one on the instance; none without a key.
    await expect(
      run('disk.export', { ...on, disk: volumeDisk(volumeId), ...keyed(key) }),
    ).rejects.toMatchObject({ code: 'MIGRATION_NOT_EXPORTED' });
    await expect(run('disk.export', { ...on, disk: 'root' })).rejects.toMatchObject({
      code: 'TRANSPORT_UNKEYED',
      retryable: false,
    });
    expect(exported()).toEqual([]);
    const root = (await run('disk.export', { ...on, disk: 'root', ...keyed(key) })) as { endpoint: string };
    await expect(
      run('disk.export', { ...on, disk: volumeDisk(volumeId), ...keyed(key) }),
    ).rejects.toMatchObject({ code: 'VOLUME_NOT_FOUND' });
    await run('volume.attach', { volume_id: volumeId, instance_id: instanceId });
    const volume = (await run('disk.export', { ...on, disk: volumeDisk(volumeId), ...keyed(key) })) as {
      endpoint: string;
      checksum: string;
    };
    expect(volume.endpoint).toBe(root.endpoint);
    expect(exported()).toHaveLength(2);
    expect(await channelAnswer(`${volume.endpoint}/volumes/${volumeId}`, move)).toEqual({
      status: 200,
      checksum: volume.checksum,
    });
    expect(await channelAnswer(`${volume.endpoint}/volumes/${randomUUID()}`, move)).toMatchObject({
      status: 403,
    });
    expect(await channelAnswer(`${volume.endpoint}/volumes/${volumeId}`, 'plain')).toHaveProperty('error');

    expect(await run('disk.withdraw', on)).toEqual({ withdrawn: true });
    expect(await run('disk.withdraw', on)).toEqual({ withdrawn: false });
    expect(exported()).toEqual([]);
    for (const path of ['disk', `volumes/${volumeId}`])
      expect(await channelAnswer(`${root.endpoint}/${path}`, move)).toEqual({ error: 'EPROTO' });
    // The guest and its volume stay as they were.
    expect(existsSync(join(stateDir, 'volumes', `${volumeId}.qcow2`))).toBe(true);
    expect(await run('instance.state', { instance_id: instanceId })).toEqual({ power_state: 'stopped' });
  }, 120_000);
});
