import { execFile, execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import { askGuest } from '../../agent/drivers/qemu/guests/guest-channel.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { guestMac } from '../../agent/drivers/qemu/network/guest-network.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import { eventually } from './eventually.js';
import { createParams, qemuAccelerator, stopDrivers, taskContext } from './qemu-hosts.js';

const run = promisify(execFile);

/** The public pool of the bridged tests' guests; the namespace carries its gateway. */
export const PUBLIC_POOL = { prefix: 24, gateway: '198.51.100.1' };
export const publicAddress = (host: number) => ({ address: `198.51.100.${host}`, ...PUBLIC_POOL });

/** What the namespace gets from http://<address>:<port><path>, or undefined when nothing answers in 3 s. */
export const fetchIn = (namespace: string, target: string, port: number, path = '/') =>
  run('ip', ['netns', 'exec', namespace, 'curl', '-sf', '-m', '3', `http://${target}:${port}${path}`], {
    maxBuffer: 4 << 20,
  }).then(
    (r) => r.stdout,
    () => undefined,
  );

/** Whether the guest (its directory) gets an answer to its own ping of `address`, asked over its channel. */
export async function guestReaches(dir: string, address: string): Promise<boolean> {
  const answer = await askGuest(dir, { verb: 'reach', user: '-', argument: address }, { timeoutMs: 30_000 });
  if (!answer.ok) throw new Error(`the guest could not ping: ${answer.detail}`);
  return answer.detail === 'reachable';
}

/**
 * A QEMU driver with the bridged network in a namespace of the test's own (its guests' taps on
 * bridges there, the namespace playing the provider's router), and what a test sees from there:
 * HTTP with a real client (curl) and the guests' own pings over their channel.
 */
export function bridgedHost(name: string) {
  const namespace = `cs-test-${randomBytes(3).toString('hex')}`;
  const stateDir = mkdtempSync(join(tmpdir(), `qemu-${name}-`));
  const ctx = taskContext();
  let driver: QemuDriver | undefined;

  const started = () => {
    if (!driver) throw new Error('the bridged host is not started');
    return driver;
  };
  const consoleOf = (id: string) => {
    const path = guestFiles(started().guestDir(id)!).console;
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  const fetchFromRouter = (target: string, port: number, path = '/') =>
    fetchIn(namespace, target, port, path);

  return {
    namespace,
    stateDir,
    get driver() {
      return started();
    },
    async start() {
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
    },
    stop() {
      stopDrivers([driver]);
      rmSync(stateDir, { recursive: true, force: true });
      if (existsSync(`/run/netns/${namespace}`)) execFileSync('ip', ['netns', 'del', namespace]);
    },
    task: (type: string, params: Record<string, unknown>) =>
      started().execute(type as AgentTaskType, params, ctx),
    consoleOf,
    fetchFromRouter,
    answers: (target: string, port: number) =>
      eventually(() => fetchFromRouter(target, port), 60_000, `an answer from ${target}:${port}`),
    /** Whether the guest's own ping of `address` comes back, asked over its channel. */
    reaches: (id: string, address: string) => guestReaches(started().guestDir(id)!, address),
    /** A guest with its primary address (198.51.100.<host>), booted and serving. */
    async guest(hostname: string, host: number): Promise<string> {
      const id = randomUUID();
      await started().execute(
        'instance.create',
        createParams(id, { hostname, addresses: { ipv4: publicAddress(host), ipv6: null } }),
        ctx,
      );
      await eventually(
        () => consoleOf(id).includes(`guest: eth0 ${guestMac(id)} 198.51.100.${host}/24`) || undefined,
        60_000,
        `${hostname} to set up its address`,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; console:\n${consoleOf(id).slice(-1500)}`);
      });
      expect(
        (await eventually(() => fetchFromRouter(`198.51.100.${host}`, 80), 60_000, 'its HTTP')).trim(),
      ).toBe(hostname);
      return id;
    },
  };
}
