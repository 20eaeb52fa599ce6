import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import type { TaskContext } from '../../agent/drivers/driver.js';
import { FAST_IMAGE, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { guestMac } from '../../agent/drivers/qemu/network/guest-network.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import { eventually } from '../support/eventually.js';
import { keyed, testTransportKey } from '../support/move-transport.js';
import {
  createParams,
  guestKnowsPassword,
  qemuAccelerator,
  SMALL_GUEST,
  stopDrivers,
  taskContext,
} from '../support/qemu-hosts.js';

/**
 * What the QEMU driver sets up inside a guest, on the driver itself: the root password, written
 * by the guest into the /etc/shadow on its disk, and the NIC, its MAC derived from the instance.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/guest-setup skipped: ${missing}`);

const FIRST_PASSWORD = 'the first password';

describe.runIf(!missing)('root password and network of QEMU guests', () => {
  const drivers: QemuDriver[] = [];
  const stateDirs: string[] = [];
  const ctx = taskContext();

  const startDriver = (env: Record<string, string> = {}) => {
    const stateDir = mkdtempSync(join(tmpdir(), 'qemu-setup-'));
    stateDirs.push(stateDir);
    return QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: stateDir,
        AGENT_QEMU_STOP_TIMEOUT_MS: '20000',
        AGENT_QEMU_ACCEL: qemuAccelerator(),
        ...env,
      }),
    ).then((driver) => {
      drivers.push(driver);
      return driver;
    });
  };
  let driver: QemuDriver;
  beforeAll(async () => {
    driver = await startDriver();
  });
  afterAll(() => {
    stopDrivers(drivers);
    for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
  });

  const run = (on: QemuDriver, type: string, params: Record<string, unknown>) =>
    on.execute(type as AgentTaskType, params, ctx);
  const create = (on: QemuDriver, instanceId: string, start = true) =>
    run(on, 'instance.create', createParams(instanceId, { root_password: FIRST_PASSWORD, start }));
  const consoleOf = (on: QemuDriver, id: string) => {
    const path = guestFiles(on.guestDir(id)!).console;
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  const nicLine = (on: QemuDriver, id: string) =>
    eventually(
      () => /^guest: eth0 (\S+) (\S+)$/m.exec(consoleOf(on, id)) ?? undefined,
      60_000,
      'the guest to report its NIC',
    ).catch((error: Error) => {
      throw new Error(`${error.message}; console:\n${consoleOf(on, id).slice(-1500)}`);
    });

  it('sets the root password in the running guest, idempotently; it stays across a stop and start; a stopped guest takes the latest reset at its next boot, once; a rebuild brings its own', async () => {
    const id = randomUUID();
    await create(driver, id);
    const dir = driver.guestDir(id)!;
    // The new disk's first boot took the creation's password.
    expect(await guestKnowsPassword(dir, 'root', FIRST_PASSWORD)).toBe(true);
    expect(await guestKnowsPassword(dir, 'root', '')).toBe(false);
    // Set again as it is: the same salt, the same line.
    expect(
      await run(driver, 'instance.set_password', { instance_id: id, root_password: FIRST_PASSWORD }),
    ).toEqual({ changed: false });

    const first = 'Correct horse battery staple';
    expect(await run(driver, 'instance.set_password', { instance_id: id, root_password: first })).toEqual({
      changed: true,
    });
    expect(await guestKnowsPassword(dir, 'root', first)).toBe(true);
    // Delivered again (an agent restarted mid-task): the same line stays in /etc/shadow.
    expect(await run(driver, 'instance.set_password', { instance_id: id, root_password: first })).toEqual({
      changed: false,
    });
    expect(await guestKnowsPassword(dir, 'root', first)).toBe(true);

    const second = 'p4ss:with$odd"chars\'';
    expect(await run(driver, 'instance.set_password', { instance_id: id, root_password: second })).toEqual({
      changed: true,
    });
    expect(await guestKnowsPassword(dir, 'root', second)).toBe(true);
    expect(await guestKnowsPassword(dir, 'root', first)).toBe(false);

    // The password and its hash stay out of the console.
    expect(consoleOf(driver, id)).not.toContain(second);
    expect(consoleOf(driver, id)).not.toContain('$6$');

    // Stopped: each reset waits in the guest's directory for its next boot, the newest replacing
    // the one before; delivered twice, it is the same one.
    await run(driver, 'instance.power', { instance_id: id, action: 'stop' });
    const pendingFile = guestFiles(dir).rootReset;
    for (const password of ['while stopped', 'while stopped, newer']) {
      expect(
        await run(driver, 'instance.set_password', { instance_id: id, root_password: password }),
      ).toEqual({ changed: true });
    }
    const waiting = readFileSync(pendingFile, 'utf8');
    expect(
      await run(driver, 'instance.set_password', { instance_id: id, root_password: 'while stopped, newer' }),
    ).toEqual({ changed: false });
    expect(readFileSync(pendingFile, 'utf8')).toBe(waiting);
    expect(statSync(pendingFile).mode & 0o777).toBe(0o600);
    expect(waiting).toMatch(/^[0-9a-f]{32} \$6\$/);
    expect(waiting).not.toContain('while stopped');
    expect(JSON.stringify(driver.snapshot())).not.toContain('while stopped');
    const [waitingId] = waiting.split(' ');

    await run(driver, 'instance.power', { instance_id: id, action: 'start' });
    expect(await guestKnowsPassword(dir, 'root', 'while stopped, newer')).toBe(true);
    expect(await guestKnowsPassword(dir, 'root', 'while stopped')).toBe(false);
    expect(await guestKnowsPassword(dir, 'root', second)).toBe(false);
    // The guest said it applied it (by its id, never the hash), and the agent dropped it.
    expect(consoleOf(driver, id)).toContain(`guest: password reset ${waitingId} applied`);
    await eventually(() => !existsSync(pendingFile), 30_000, 'the applied reset dropped');
    expect(consoleOf(driver, id)).not.toContain('$6$');

    // A reset of the running guest is newer: it stays across a reboot, even one handed the older
    // reset again (as by an agent that never saw the guest's word), because the disk knows that
    // one's id as applied.
    expect(
      await run(driver, 'instance.set_password', { instance_id: id, root_password: 'after the boot' }),
    ).toEqual({ changed: true });
    writeFileSync(pendingFile, waiting, { mode: 0o600 });
    await run(driver, 'instance.power', { instance_id: id, action: 'restart' });
    expect(await guestKnowsPassword(dir, 'root', 'after the boot')).toBe(true);
    expect(await guestKnowsPassword(dir, 'root', 'while stopped, newer')).toBe(false);
    await eventually(() => !existsSync(pendingFile), 30_000, 'the old reset dropped again');

    // A rebuild writes a new disk, whose first boot takes the rebuild's password; delivered twice, once.
    const rebuild = {
      instance_id: id,
      rebuild_id: randomUUID(),
      image: FAST_IMAGE,
      hostname: 'guest.example.test',
      timezone: 'UTC',
      root_password: 'the rebuild password',
      ssh_keys: [],
      start: true,
    };
    for (const round of [1, 2]) {
      expect(await run(driver, 'instance.rebuild', rebuild), `rebuild ${round}`).toEqual({
        power_state: 'running',
      });
      expect(await guestKnowsPassword(dir, 'root', 'the rebuild password')).toBe(true);
      expect(await guestKnowsPassword(dir, 'root', 'after the boot')).toBe(false);
    }
  }, 300_000);

  it('hands a stopped guest’s passwords to the target of a cold move: a never-booted disk’s first password, and a reset made while stopped', async () => {
    const source = await startDriver();
    const target = await startDriver();
    /** The cold move's tasks, in the workflow's order, for a guest that is stopped throughout. */
    const coldMove = async (instanceId: string) => {
      const on = { migration_id: randomUUID(), instance_id: instanceId };
      const transport = keyed(testTransportKey());
      await run(target, 'migration.prepare_target', {
        ...on,
        hostname: 'guest.example.test',
        ...SMALL_GUEST,
      });
      const { endpoint } = (await run(source, 'disk.export', { ...on, disk: 'root', ...transport })) as {
        endpoint: string;
      };
      const redeeming: TaskContext = {
        ...ctx,
        redeemTransfer: async () => ({ migration_uuid: on.migration_id, disk: 'root', endpoint }),
      };
      await target.execute(
        'disk.transfer',
        { ...on, disk: 'root', transfer_token: 't', ...transport },
        redeeming,
      );
      await run(target, 'disk.verify', { ...on, disk: 'root' });
      await run(target, 'network.prepare', { ...on, ipv4: null, ipv6: null });
      await run(target, 'migration.define_target', { ...on, final_sync: true });
      expect(await run(target, 'migration.start_target', { ...on, start: false })).toEqual({
        power_state: 'stopped',
      });
      expect(await run(source, 'migration.cleanup_source', on)).toEqual({ removed: true });
    };
    const neverBooted = randomUUID();
    const resetWhileStopped = randomUUID();
    await Promise.all([create(source, neverBooted, false), create(source, resetWhileStopped, false)]);
    expect(
      await run(source, 'instance.set_password', {
        instance_id: resetWhileStopped,
        root_password: 'reset before the move',
      }),
    ).toEqual({ changed: true });
    for (const id of [neverBooted, resetWhileStopped]) await coldMove(id);
    expect(source.snapshot().instances).toEqual({});
    // The reset and the key of the guest's salts came along: delivered again, it is no change.
    expect(
      await run(target, 'instance.set_password', {
        instance_id: resetWhileStopped,
        root_password: 'reset before the move',
      }),
    ).toEqual({ changed: false });
    const movedReset = guestFiles(target.guestDir(resetWhileStopped)!).rootReset;
    expect(statSync(movedReset).mode & 0o777).toBe(0o600);

    for (const id of [neverBooted, resetWhileStopped])
      await run(target, 'instance.power', { instance_id: id, action: 'start' });
    const neverBootedDir = target.guestDir(neverBooted)!;
    const resetDir = target.guestDir(resetWhileStopped)!;
    expect(await guestKnowsPassword(neverBootedDir, 'root', FIRST_PASSWORD)).toBe(true);
    expect(await guestKnowsPassword(resetDir, 'root', 'reset before the move')).toBe(true);
    expect(await guestKnowsPassword(resetDir, 'root', FIRST_PASSWORD)).toBe(false);
    await eventually(() => !existsSync(movedReset), 30_000, 'the applied reset dropped on the target');
  }, 240_000);

  it('gives each guest a NIC with the MAC of its instance: an address from user-mode networking, none without a backend', async () => {
    const none = await startDriver({ AGENT_QEMU_NETWORK: 'none' });
    const withNetwork = randomUUID();
    const without = randomUUID();
    await Promise.all([create(driver, withNetwork), create(none, without)]);

    const [, mac, address] = await nicLine(driver, withNetwork);
    expect(mac).toBe(guestMac(withNetwork));
    // Locally administered, unicast.
    expect(Number.parseInt(mac!.slice(0, 2), 16) & 0x03).toBe(0x02);
    expect(address).toBe('10.0.2.15/24');

    const [, macWithout, addressWithout] = await nicLine(none, without);
    expect(macWithout).toBe(guestMac(without));
    expect(macWithout).not.toBe(mac);
    expect(addressWithout).toBe('none');

    // Started again, the guest has the same NIC.
    await run(driver, 'instance.power', { instance_id: withNetwork, action: 'restart' });
    await eventually(
      () => consoleOf(driver, withNetwork).match(/^guest: eth0 .*$/gm)?.length === 2,
      60_000,
      'the NIC reported after the restart',
    );
    expect(consoleOf(driver, withNetwork).match(/^guest: eth0 .*$/gm)).toEqual([
      `guest: eth0 ${mac} 10.0.2.15/24`,
      `guest: eth0 ${mac} 10.0.2.15/24`,
    ]);
  }, 240_000);
});
