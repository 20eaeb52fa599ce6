import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { DriverFailure, type TaskContext } from '../../agent/drivers/driver.js';
import { FAST_IMAGE, imageStoreDir, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import { guestFiles, guestPid } from '../../agent/drivers/qemu/guests/guest-process.js';
import { Qmp } from '../../agent/drivers/qemu/guests/qmp.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import { eventually } from '../support/eventually.js';
import { guestSeenSize } from '../support/guest-size.js';
import { keyed, testTransportKey } from '../support/move-transport.js';
import {
  createParams,
  qemuAccelerator,
  SMALL_GUEST,
  stopDrivers,
  taskContext,
} from '../support/qemu-hosts.js';

/**
 * A plan change on a real guest, on the driver itself: the busybox guest booted with room to grow
 * takes a vCPU and 256 MB while it runs (its count goes on, no boot), and says so itself, read over
 * its serial console (`nproc`, /proc/meminfo); a restarted agent and a power cycle keep the new
 * size; a shrink back is one cold restart.
 */
/** The busybox image that onlines hot-added vCPUs (scripts/images/busybox.sh, version 14). */
const ONLINING_IMAGE_VERSION = 14;
const imageVersion = () => {
  const file = join(imageStoreDir(), FAST_IMAGE, 'version');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : 0;
};
const missing =
  qemuGuestsMissing() ??
  (imageVersion() < ONLINING_IMAGE_VERSION
    ? `the ${FAST_IMAGE} image is older than version ${ONLINING_IMAGE_VERSION}, which onlines hot-added vCPUs (bash scripts/images/busybox.sh)`
    : undefined);
if (missing) console.warn(`test/qemu/hot-resize skipped: ${missing}`);

const CEILING = { cpu_cores: 2, memory_mb: 512 };

describe.runIf(!missing)('resizing a QEMU guest', () => {
  const drivers: QemuDriver[] = [];
  const stateDirs: string[] = [];
  const newStateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'qemu-resize-'));
    stateDirs.push(dir);
    return dir;
  };
  const startDriver = (stateDir: string) =>
    QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: stateDir,
        // The store the image was checked in above.
        AGENT_QEMU_IMAGE_STORE: imageStoreDir(),
        AGENT_QEMU_STOP_TIMEOUT_MS: '10000',
        AGENT_QEMU_ACCEL: qemuAccelerator(),
      }),
    ).then((driver) => {
      drivers.push(driver);
      return driver;
    });
  afterAll(() => {
    stopDrivers(drivers);
    for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
  });

  const consoleOf = (driver: QemuDriver, id: string) => {
    const path = guestFiles(driver.guestDir(id)!).console;
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  const boots = (driver: QemuDriver, id: string) => consoleOf(driver, id).split('guest: booted').length - 1;
  const lastTick = (driver: QemuDriver, id: string) =>
    Math.max(0, ...[...consoleOf(driver, id).matchAll(/^tick (\d+)\r?$/gm)].map((m) => Number(m[1])));
  const ticksPast = (driver: QemuDriver, id: string, after: number) =>
    eventually(() => lastTick(driver, id) > after, 60_000, `a tick above ${after}`);

  /** The guest's size as the guest itself sees it, with its console's end when it does not say. */
  const seenSize = (driver: QemuDriver, id: string) =>
    guestSeenSize(driver.guestDir(id)!, () => consoleOf(driver, id)).catch((error: Error) => {
      throw new Error(`${error.message}; console:\n${consoleOf(driver, id).slice(-1500)}`);
    });
  const commandLine = (driver: QemuDriver, id: string) =>
    readFileSync(`/proc/${guestPid(driver.guestDir(id)!)}/cmdline`, 'utf8').split('\0');

  it('grows a running guest by a vCPU and 256 MB with no boot, idempotently; refuses a shrink and past the ceiling; keeps the size across an agent restart and a power cycle; shrinks back with one restart', async () => {
    const ctx = taskContext();
    const stateDir = newStateDir();
    let driver = await startDriver(stateDir);
    const run = (type: string, params: Record<string, unknown>) =>
      driver.execute(type as AgentTaskType, params, ctx);
    const id = randomUUID();
    const started = performance.now();
    expect(await run('instance.create', createParams(id, { ceiling: CEILING }))).toEqual({
      power_state: 'running',
      ceiling: CEILING,
    });
    expect(commandLine(driver, id)).toEqual(
      expect.arrayContaining(['-smp', '1,maxcpus=2', '-m', '128M,slots=3,maxmem=512M']),
    );
    await ticksPast(driver, id, 1);
    const bootMs = performance.now() - started;
    const before = await seenSize(driver, id);
    expect(before.cpus).toBe(1);

    const hot = { instance_id: id, cpu_cores: 2, memory_mb: 384, mode: 'hot' };
    const grown = { power_state: 'running', cpu_cores: 2, memory_mb: 384, applied: 'hot', ceiling: CEILING };
    const tickBefore = lastTick(driver, id);
    const hotStarted = performance.now();
    expect(await run('instance.resize', hot)).toEqual(grown);
    const hotTaskMs = performance.now() - hotStarted;
    let seen = before;
    const after = await eventually(
      async () => {
        seen = await seenSize(driver, id);
        return seen.cpus === 2 && seen.memoryKb > before.memoryKb ? seen : undefined;
      },
      30_000,
      'the guest to see its new vCPU and memory',
    ).catch((error: Error) => {
      throw new Error(
        `${error.message}: ${JSON.stringify({ before, seen })}; console:\n${consoleOf(driver, id).slice(-2500)}`,
      );
    });
    const hotSeenMs = performance.now() - hotStarted;
    expect(after.memoryKb - before.memoryKb).toBe(256 * 1024);
    // No boot: the count goes on in the same run.
    await ticksPast(driver, id, tickBefore + 1);
    expect(boots(driver, id)).toBe(1);
    const added = driver.snapshot().instances[id]!.hot_added;
    expect(added?.cpus.map((c) => c.id)).toEqual(['vcpu-s0-c1-t0']);
    expect(added?.dimms.map((d) => [d.id, d.size_mb])).toEqual([['dimm1', 256]]);

    // Repeated, it finds the devices there and adds none.
    expect(await run('instance.resize', hot)).toEqual(grown);
    expect(driver.snapshot().instances[id]!.hot_added).toEqual(added);

    // A shrink and a growth past the ceiling are not hot: refused, nothing changed.
    for (const [change, reason] of [
      [{ cpu_cores: 1, memory_mb: 384 }, 'vCPUs shrink'],
      [{ cpu_cores: 2, memory_mb: 640 }, 'more than 512 MB of memory'],
      [{ cpu_cores: 3, memory_mb: 384 }, 'more than 2 vCPUs'],
    ] as const) {
      const refusal = await run('instance.resize', { ...hot, ...change }).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(DriverFailure);
      expect(refusal).toMatchObject({ code: 'HOT_RESIZE_REFUSED', retryable: false });
      expect((refusal as Error).message).toContain(reason);
    }
    expect(driver.snapshot().instances[id]).toMatchObject({ cpu_cores: 2, memory_mb: 384, hot_added: added });
    expect(boots(driver, id)).toBe(1);

    // A restarted agent knows the ceiling and the devices from its state file and the guest.
    driver.close();
    driver = await startDriver(stateDir);
    expect(await run('instance.resize', hot)).toEqual(grown);
    expect(await run('instance.create', createParams(id, { ceiling: CEILING }))).toEqual({
      power_state: 'running',
      ceiling: CEILING,
    });

    // A power cycle boots it at its whole size: what was added is in its command line's size.
    await run('instance.power', { instance_id: id, action: 'restart' });
    expect(commandLine(driver, id)).toEqual(
      expect.arrayContaining(['-smp', '2', '-m', '384M,slots=1,maxmem=512M']),
    );
    expect(driver.snapshot().instances[id]!.hot_added).toBeUndefined();
    await eventually(() => boots(driver, id) === 2, 60_000, 'the second boot');
    expect((await seenSize(driver, id)).cpus).toBe(2);

    // Back to its first size: one cold restart, and the guest sees the smaller size.
    const cold = { instance_id: id, cpu_cores: 1, memory_mb: 128, mode: 'cold', ceiling: CEILING };
    const shrunk = {
      power_state: 'running',
      cpu_cores: 1,
      memory_mb: 128,
      applied: 'cold',
      ceiling: CEILING,
    };
    const coldStarted = performance.now();
    expect(await run('instance.resize', cold)).toEqual(shrunk);
    await eventually(() => boots(driver, id) === 3, 60_000, 'the boot with the smaller size');
    const coldMs = performance.now() - coldStarted;
    expect(await seenSize(driver, id)).toEqual(before);
    expect(commandLine(driver, id)).toEqual(
      expect.arrayContaining(['-smp', '1,maxcpus=2', '-m', '128M,slots=3,maxmem=512M']),
    );
    // Repeated: the size is there, no second restart.
    expect(await run('instance.resize', cold)).toEqual(shrunk);
    await ticksPast(driver, id, lastTick(driver, id) + 1);
    expect(boots(driver, id)).toBe(3);

    // A task cut off after its DIMM went in (and before the state file said so): its repeat finds
    // the DIMM in the running guest and adds no other.
    await Qmp.with(guestFiles(driver.guestDir(id)!).qmp, async (qmp) => {
      await qmp.execute('object-add', {
        'qom-type': 'memory-backend-ram',
        id: 'dimm1-ram',
        size: 256 * 1024 * 1024,
      });
      await qmp.execute('device_add', { driver: 'pc-dimm', id: 'dimm1', memdev: 'dimm1-ram' });
    });
    expect(await run('instance.resize', { ...hot, cpu_cores: 1 })).toEqual({ ...grown, cpu_cores: 1 });
    expect(driver.snapshot().instances[id]!.hot_added).toEqual({
      cpus: [],
      dimms: [{ id: 'dimm1', size_mb: 256, slot: 0, addr: expect.any(Number) }],
    });
    console.info(
      `hot-resize timings (ms): boot to first tick ${Math.round(bootMs)}, hot task ${Math.round(hotTaskMs)}, hot seen by the guest ${Math.round(hotSeenMs)}, cold shrink to its boot ${Math.round(coldMs)}`,
    );
  }, 120_000);
  it('moves a hot-grown guest live: the target starts with the vCPU and DIMM added, the count goes on, and it grows on there', async () => {
    const [source, target] = await Promise.all([startDriver(newStateDir()), startDriver(newStateDir())]);
    const id = randomUUID();
    const ids = { migration_id: randomUUID(), instance_id: id };
    const transport = keyed(testTransportKey());
    let endpoint = '';
    const ctx: TaskContext = {
      ...taskContext(),
      redeemTransfer: async () => ({ migration_uuid: ids.migration_id, disk: 'root', endpoint }),
    };
    const run = (driver: QemuDriver, type: string, params: Record<string, unknown>) =>
      driver.execute(type as AgentTaskType, params, ctx);
    await run(source, 'instance.create', createParams(id, { ceiling: CEILING }));
    await ticksPast(source, id, 1);
    await run(source, 'instance.resize', { instance_id: id, cpu_cores: 2, memory_mb: 384, mode: 'hot' });
    const grown = await eventually(
      async () => {
        const size = await seenSize(source, id);
        return size.cpus === 2 ? size : undefined;
      },
      30_000,
      'the guest to see its new vCPU',
    );

    // The panel's size is the grown one; the target hears the rest from the source.
    await run(target, 'migration.prepare_target', {
      ...ids,
      hostname: 'guest.example.test',
      ...SMALL_GUEST,
      cpu_cores: 2,
      memory_mb: 384,
    });
    ({ endpoint } = (await run(source, 'disk.export', { ...ids, disk: 'root', ...transport })) as {
      endpoint: string;
    });
    await run(target, 'disk.transfer', { ...ids, disk: 'root', transfer_token: 't', ...transport });
    await run(target, 'disk.verify', { ...ids, disk: 'root' });
    await run(target, 'network.prepare', { ...ids, ipv4: null, ipv6: null });
    await run(target, 'migration.define_target', { ...ids, final_sync: false });
    const waiting = target.snapshot().incoming[ids.migration_id]!;
    const pid = guestPid(waiting.dir)!;
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    // Booted at the source's boot size, with its room and the devices added since, where they are.
    expect(args).toEqual(
      expect.arrayContaining([
        '-smp',
        '1,maxcpus=2',
        '-m',
        '128M,slots=3,maxmem=512M',
        'max-x86_64-cpu,id=vcpu-s0-c1-t0,core-id=1,thread-id=0,node-id=0,socket-id=0',
        'memory-backend-ram,id=dimm1-ram,size=256M',
      ]),
    );
    expect(args.some((a) => /^pc-dimm,id=dimm1,memdev=dimm1-ram,slot=0,addr=\d+$/.test(a))).toBe(true);

    await run(source, 'migration.live', { ...ids, target_hypervisor_id: randomUUID() });
    const last = lastTick(source, id);
    expect(await run(target, 'migration.start_target', { ...ids, start: true })).toEqual({
      power_state: 'running',
    });
    await ticksPast(target, id, last + 1);
    expect(consoleOf(target, id)).not.toContain('guest: booted');
    expect(await seenSize(target, id)).toEqual(grown);
    expect(target.snapshot().instances[id]).toMatchObject({
      cpu_cores: 2,
      memory_mb: 384,
      ceiling: CEILING,
      hot_added: source.snapshot().instances[id]!.hot_added,
    });
    // Its inventory tells the panel the room the arrived guest's process has: the source's.
    expect((await target.guests()).find((g) => g.instance_uuid === id)).toEqual({
      instance_uuid: id,
      power_state: 'running',
      hot_ceiling: CEILING,
    });

    // There it grows on into its next memory slot.
    expect(
      await run(target, 'instance.resize', { instance_id: id, cpu_cores: 2, memory_mb: 512, mode: 'hot' }),
    ).toEqual({
      power_state: 'running',
      cpu_cores: 2,
      memory_mb: 512,
      applied: 'hot',
      ceiling: CEILING,
    });
    await eventually(
      async () => ((await seenSize(target, id)).memoryKb === grown.memoryKb + 128 * 1024 ? true : undefined),
      30_000,
      'the guest to see 128 MB more on the target',
    );
  }, 120_000);
});
