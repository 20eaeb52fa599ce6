import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import type { TaskContext } from '../../agent/drivers/driver.js';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import { channelAnswer, keyed, testTransportKey } from '../support/move-transport.js';
import { createParams, qemuAccelerator, SMALL_GUEST, stopDrivers } from '../support/qemu-hosts.js';

/**
 * A cold move's disk, offered by a source whose agent restarts between the offer and the pull:
 * the restarted agent listens where the endpoint says, under the move's key it kept, and the target
 * still gets the disk, whole. Plain HTTP, TLS without a key and a target with the wrong key get
 * nothing; a task repeated after the pull changes nothing.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/transfer-restart skipped: ${missing}`);

describe.runIf(!missing)('a disk transfer across a source agent restart', () => {
  const dirs: string[] = [];
  const drivers: QemuDriver[] = [];
  afterAll(() => {
    stopDrivers(drivers);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const start = async (stateDir?: string) => {
    const dir = stateDir ?? mkdtempSync(join(tmpdir(), 'qemu-transfer-'));
    if (!stateDir) dirs.push(dir);
    const driver = await QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: dir,
        AGENT_QEMU_ACCEL: qemuAccelerator(),
      }),
    );
    drivers.push(driver);
    return { driver, dir };
  };
  const context = (endpoint: () => string): TaskContext => ({
    signal: new AbortController().signal,
    progress: () => undefined,
    redeemTransfer: async () => ({ migration_uuid: '', disk: 'root', endpoint: endpoint() }),
  });

  it('the restarted source serves the offered disk where it said, under the move’s key only', async () => {
    const source = await start();
    const target = await start();
    const instanceId = randomUUID();
    const migrationId = randomUUID();
    const ids = { migration_id: migrationId, instance_id: instanceId };
    let endpoint = '';
    const ctx = context(() => endpoint);
    const run = (driver: QemuDriver, type: string, params: Record<string, unknown>) =>
      driver.execute(type as AgentTaskType, params, ctx);

    await run(source.driver, 'instance.create', createParams(instanceId, { start: false }));
    await run(target.driver, 'migration.prepare_target', {
      ...ids,
      hostname: 'guest.example.test',
      ...SMALL_GUEST,
    });
    const key = testTransportKey();
    const offered = (await run(source.driver, 'disk.export', { ...ids, disk: 'root', ...keyed(key) })) as {
      checksum: string;
      endpoint: string;
    };
    // An address, no secret: what opens it is the key.
    expect(offered.endpoint).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:\\d+/migrations/${migrationId}$`));

    // The source's agent goes away and comes back on the same state.
    source.driver.close();
    const restarted = await start(source.dir);

    // Plain HTTP, TLS without a key, and TLS under another key get no answer at all.
    const disk = `${offered.endpoint}/disk`;
    for (const client of ['plain', 'no-key', { migrationId, key: testTransportKey() }] as const)
      expect(await channelAnswer(disk, client), JSON.stringify(client)).toHaveProperty('error');
    // The key of another move this source offers opens nothing of this one's, even by its path.
    const other = { migration_id: randomUUID(), instance_id: randomUUID() };
    const otherKey = testTransportKey();
    await run(restarted.driver, 'instance.create', createParams(other.instance_id, { start: false }));
    const otherOffer = (await run(restarted.driver, 'disk.export', {
      ...other,
      disk: 'root',
      ...keyed(otherKey),
    })) as { endpoint: string };
    const otherMove = { migrationId: other.migration_id, key: otherKey };
    expect(await channelAnswer(`${otherOffer.endpoint}/disk`, otherMove)).toMatchObject({ status: 200 });
    expect(await channelAnswer(disk, otherMove)).toEqual({ status: 403, checksum: null });

    // A target holding the wrong key is refused, for good.
    endpoint = offered.endpoint;
    await expect(
      run(target.driver, 'disk.transfer', {
        ...ids,
        disk: 'root',
        transfer_token: 't',
        ...keyed(testTransportKey()),
      }),
    ).rejects.toMatchObject({ code: 'TRANSFER_REFUSED', retryable: false });

    // The endpoint handed out before the restart still reaches the disk, whole, under the move's key.
    const received = await run(target.driver, 'disk.transfer', {
      ...ids,
      disk: 'root',
      transfer_token: 't',
      ...keyed(key),
    });
    expect(received).toEqual({ checksum: offered.checksum, size_mb: SMALL_GUEST.disk_mb });
    expect(await run(target.driver, 'disk.verify', { ...ids, disk: 'root' })).toEqual({
      checksum: offered.checksum,
    });
    expect(restarted.driver.snapshot().channel_port).toBe(Number(new URL(offered.endpoint).port));
    // Delivered twice, the transfer pulls nothing more and redeems nothing more.
    endpoint = 'https://127.0.0.1:9/nowhere';
    expect(
      await run(target.driver, 'disk.transfer', { ...ids, disk: 'root', transfer_token: 't', ...keyed(key) }),
    ).toEqual(received);
  }, 120_000);
});
