import { execFile, execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { DriverFailure } from '../../agent/drivers/driver.js';
import { bridgedNetworkMissing, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import { askGuest } from '../../agent/drivers/qemu/guest-channel.js';
import { guestFiles } from '../../agent/drivers/qemu/guest-process.js';
import { guestMac } from '../../agent/drivers/qemu/network/guest-network.js';
import { tapName } from '../../agent/drivers/qemu/network/host-network.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import { eventually } from '../support/eventually.js';
import { createParams, qemuAccelerator, stopDrivers, taskContext } from '../support/qemu-hosts.js';

const run = promisify(execFile);

/**
 * The bridged network with packets: guests' taps on a bridge in a namespace of the test's own,
 * the namespace playing the provider's router (it carries the pools' gateways), and what reaches
 * a guest or not seen from there with a real HTTP client (curl). The guest
 * serves its hostname on ports 80 and 8080 and a MiB at /blob.
 */
const missing = qemuGuestsMissing() ?? bridgedNetworkMissing();
if (missing) console.warn(`test/qemu/bridged-network skipped: ${missing}`);

const POOL = { prefix: 24, gateway: '198.51.100.1' };
const FLOATING = { address: '203.0.113.5', prefix: 24, gateway: '203.0.113.1' };
const address = (host: number) => ({ address: `198.51.100.${host}`, ...POOL });

describe.runIf(!missing)('the bridged network of QEMU guests', () => {
  const namespace = `cs-test-${randomBytes(3).toString('hex')}`;
  const stateDir = mkdtempSync(join(tmpdir(), 'qemu-bridged-'));
  const ctx = taskContext();
  let driver: QemuDriver;
  beforeAll(async () => {
    driver = await QemuDriver.start(
      loadAgentConfig({
        AGENT_PANEL_URL: 'http://127.0.0.1:9',
        AGENT_STATE_DIR: stateDir,
        AGENT_QEMU_STOP_TIMEOUT_MS: '20000',
        AGENT_QEMU_ACCEL: qemuAccelerator(),
        AGENT_QEMU_NETWORK: 'bridged',
        AGENT_QEMU_NETNS: namespace,
      }),
    );
  });
  afterAll(() => {
    stopDrivers([driver]);
    rmSync(stateDir, { recursive: true, force: true });
    if (existsSync(`/run/netns/${namespace}`)) execFileSync('ip', ['netns', 'del', namespace]);
  });

  const task = (type: string, params: Record<string, unknown>) =>
    driver.execute(type as AgentTaskType, params, ctx);
  const consoleOf = (id: string) => {
    const path = guestFiles(driver.guestDir(id)!).console;
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  /** What the namespace gets from http://<address>:<port><path>, or undefined when nothing answers in 3 s. */
  const fetchFromRouter = (target: string, port: number, path = '/') =>
    run('ip', ['netns', 'exec', namespace, 'curl', '-sf', '-m', '3', `http://${target}:${port}${path}`], {
      maxBuffer: 4 << 20,
    }).then(
      (r) => r.stdout,
      () => undefined,
    );
  const answers = (target: string, port: number) =>
    eventually(() => fetchFromRouter(target, port), 60_000, `an answer from ${target}:${port}`);

  /** A guest with its primary address, booted and serving. */
  async function guest(name: string, host: number) {
    const id = randomUUID();
    await task(
      'instance.create',
      createParams(id, { hostname: name, addresses: { ipv4: address(host), ipv6: null } }),
    );
    await eventually(
      () => consoleOf(id).includes(`guest: eth0 ${guestMac(id)} 198.51.100.${host}/24`) || undefined,
      60_000,
      `${name} to set up its address`,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; console:\n${consoleOf(id).slice(-1500)}`);
    });
    expect((await answers(`198.51.100.${host}`, 80)).trim()).toBe(name);
    return id;
  }

  const networkOf = (revision: number, host: number, floating: boolean) => ({
    revision,
    addresses: [
      { ...address(host), family: 4, primary: true, floating: false },
      ...(floating ? [{ ...FLOATING, family: 4, primary: false, floating: true }] : []),
    ],
    nics: [],
  });

  it('filters on the guest’s tap: a closed port drops, an opened one answers, replies to the guest’s own flows pass; an older revision changes nothing; the delete takes its chains away', async () => {
    const id = await guest('walled.example.test', 20);
    const open80 = {
      direction: 'inbound',
      protocol: 'tcp',
      port_from: 80,
      port_to: 80,
      cidr: '0.0.0.0/0',
      action: 'accept',
    };
    expect(
      await task('firewall.apply', { instance_id: id, revision: 1, enabled: true, rules: [open80] }),
    ).toEqual({
      revision: 1,
    });
    expect((await fetchFromRouter('198.51.100.20', 80))?.trim()).toBe('walled.example.test');
    expect(await fetchFromRouter('198.51.100.20', 8080)).toBeUndefined();
    // The guest's own ping of its gateway comes back through the closed firewall.
    expect(
      await askGuest(
        driver.guestDir(id)!,
        { verb: 'reach', user: '-', argument: POOL.gateway },
        { timeoutMs: 30_000 },
      ),
    ).toEqual({
      ok: true,
      detail: 'reachable',
    });

    const open8080 = { ...open80, port_from: 8000, port_to: 8100 };
    await task('firewall.apply', { instance_id: id, revision: 2, enabled: true, rules: [open80, open8080] });
    expect((await fetchFromRouter('198.51.100.20', 8080))?.trim()).toBe('walled.example.test');
    // Revision 1 delivered late: revision 2 stays.
    expect(
      await task('firewall.apply', { instance_id: id, revision: 1, enabled: true, rules: [open80] }),
    ).toEqual({
      revision: 2,
    });
    expect((await fetchFromRouter('198.51.100.20', 8080))?.trim()).toBe('walled.example.test');
    // Disabled, the rules kept by the panel: nothing is filtered.
    await task('firewall.apply', { instance_id: id, revision: 3, enabled: false, rules: [open80] });
    expect((await fetchFromRouter('198.51.100.20', 8080))?.trim()).toBe('walled.example.test');

    await task('instance.delete', { instance_id: id });
    const { stdout } = await run('ip', [
      'netns',
      'exec',
      namespace,
      'nft',
      'list',
      'table',
      'bridge',
      'cloudsvc',
    ]);
    expect(stdout).not.toContain(tapName(stateDir, id, 0));
  }, 180_000);

  it('moves a floating address: it answers on its first guest, then on the one it moved to; counts the bytes a guest sent', async () => {
    const first = await guest('first.example.test', 30);
    const second = await guest('second.example.test', 31);
    expect(await task('network.apply', { instance_id: first, ...networkOf(1, 30, true) })).toEqual({
      revision: 1,
    });
    expect((await answers(FLOATING.address, 80)).trim()).toBe('first.example.test');

    // The move: off the first, onto the second, which announces it.
    await task('network.apply', { instance_id: first, ...networkOf(2, 30, false) });
    await task('network.apply', { instance_id: second, ...networkOf(1, 31, true) });
    await eventually(
      async () =>
        (await fetchFromRouter(FLOATING.address, 80))?.trim() === 'second.example.test' || undefined,
      30_000,
      'the floating address answered by the second guest',
    );
    // Applied again (a task delivered twice): nothing changes.
    expect(await task('network.apply', { instance_id: second, ...networkOf(1, 31, true) })).toEqual({
      revision: 1,
    });
    expect(consoleOf(second)).toContain(
      `guest: network eth0 ${guestMac(second)} 198.51.100.31/24,203.0.113.5/32`,
    );

    // Bandwidth: what the first guest sent (a MiB fetched from it) is counted on its tap.
    driver.sample(new Date());
    expect((await fetchFromRouter('198.51.100.30', 80, '/blob'))?.length).toBe(1024 * 1024);
    let sent = 0;
    await eventually(
      async () => {
        sent += driver.sample(new Date()).find((s) => s.instance_uuid === first)?.net_tx_bytes ?? 0;
        return sent >= 1024 * 1024 || undefined;
      },
      15_000,
      'a MiB counted as sent',
    );
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  }, 180_000);

  it('refuses a private network (not wired by this driver yet), changing nothing', async () => {
    const id = await guest('plain.example.test', 40);
    const nic = { network_id: randomUUID(), mac: '02:00:00:00:00:01', address: '10.9.0.2', prefix: 24 };
    await expect(
      task('network.apply', { instance_id: id, ...networkOf(1, 40, false), nics: [nic] }),
    ).rejects.toThrow(DriverFailure);
    expect(driver.snapshot().instances[id]?.network).toBeUndefined();
  }, 180_000);
});
