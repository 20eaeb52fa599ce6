import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { TaskContext } from '../../agent/drivers/driver.js';
import { FAST_IMAGE } from '../../agent/drivers/qemu/availability.js';
import type { QemuDriver } from '../../agent/drivers/qemu/driver.js';
import type { Accelerator } from '../../agent/drivers/qemu/guests/accelerator.js';
import { askGuest } from '../../agent/drivers/qemu/guests/guest-channel.js';
import { guestFiles, guestPid, runStatus } from '../../agent/drivers/qemu/guests/guest-process.js';
import type { QemuState } from '../../agent/drivers/qemu/guests/state.js';
import { qemuStatePath } from '../../agent/drivers/qemu/guests/state.js';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { provisionInstance } from '../../services/instances/provision.js';
import type { AgentProcess } from './agents/process.js';
import { eventually } from './eventually.js';
import { seed } from './seed.js';
import { type Stack, startStack } from './stack.js';

/**
 * The accelerator of every guest the suite starts, agents' and drivers' alike: the run's one probe
 * (test/global-setup.ts), so that no test boots under a KVM that never runs a guest.
 */
export const qemuAccelerator = (): Accelerator => inject('qemuAcceleration').accelerator;

/** A small guest: it boots in seconds under TCG and moves in about one. */
export const SMALL_GUEST = { cpu_cores: 1, memory_mb: 128, disk_mb: 64 } as const;

/** What a task run directly on a driver is given, outside any migration. */
export const taskContext = (): TaskContext => ({
  signal: new AbortController().signal,
  progress: () => undefined,
  redeemTransfer: () => Promise.reject(new Error('no migration here')),
});

/** The params of an `instance.create` task for a small guest, as the panel sends them. */
export const createParams = (instanceId: string, extra: Record<string, unknown> = {}) => ({
  instance_id: instanceId,
  hostname: 'guest.example.test',
  timezone: 'UTC',
  root_password: 'not-used-by-this-guest',
  ssh_keys: [],
  ...SMALL_GUEST,
  image: FAST_IMAGE,
  boot_order: ['disk'],
  ipv4: null,
  ipv6: null,
  start: true,
  ...extra,
});

/** Ends the guests of drivers a test started directly (they outlive their driver) and the drivers. */
export function stopDrivers(drivers: readonly (QemuDriver | undefined)[]): void {
  for (const driver of drivers) {
    if (!driver) continue;
    for (const id of Object.keys(driver.snapshot().instances)) {
      const pid = guestPid(driver.guestDir(id)!);
      if (pid) process.kill(pid, 'SIGKILL');
    }
    driver.close();
  }
}

export interface QemuHost {
  readonly hypervisor: { id: string; location_id: string };
  readonly agent: AgentProcess;
  state(): QemuState;
  /** The serial console of the instance's guest on this host ('' before it has one). */
  console(instanceId: string): string;
  /** The ticks the guest printed, in order. */
  ticks(instanceId: string): number[];
  /** Whether the instance's QEMU process runs on this host. */
  guestRunning(instanceId: string): boolean;
  /** The guest a migration brings here, before the target owns it as an instance. */
  arriving(migrationId: string): { ticks: number[]; console: string; running: boolean };
  /** The capabilities its agent advertised, as the panel stored them from its first heartbeat. */
  reportedCapabilities(): Promise<string[]>;
}

/** Hypervisors whose real agent processes run the QEMU driver, and the guests they start. */
export function qemuHosts(env: Stack) {
  const hosts: QemuHost[] = [];

  async function host(locationId: string, agentEnv: Record<string, string> = {}): Promise<QemuHost> {
    const { hypervisor, agent } = await env.hypervisorWithAgentProcess(
      {
        AGENT_DRIVER: 'qemu',
        AGENT_QEMU_ACCEL: qemuAccelerator(),
        AGENT_QEMU_STOP_TIMEOUT_MS: '20000',
        ...agentEnv,
      },
      { locationId },
    );
    const state = (): QemuState =>
      existsSync(qemuStatePath(agent.stateDir))
        ? (JSON.parse(readFileSync(qemuStatePath(agent.stateDir), 'utf8')) as QemuState)
        : { instances: {}, incoming: {}, exports: {}, channel_port: null };
    const dirOf = (instanceId: string) => state().instances[instanceId]?.dir;
    const console = (instanceId: string) => {
      const dir = dirOf(instanceId);
      const path = dir ? guestFiles(dir).console : undefined;
      return path && existsSync(path) ? readFileSync(path, 'utf8') : '';
    };
    const ticksIn = (text: string) => [...text.matchAll(/^tick (\d+)$/gm)].map((m) => Number(m[1]));
    const created: QemuHost = {
      hypervisor,
      agent,
      state,
      console,
      ticks: (instanceId) => ticksIn(console(instanceId)),
      guestRunning: (instanceId) => {
        const dir = dirOf(instanceId);
        return dir !== undefined && guestPid(dir) !== undefined;
      },
      arriving: (migrationId) => {
        const dir = state().incoming[migrationId]?.dir;
        const path = dir ? guestFiles(dir).console : undefined;
        const text = path && existsSync(path) ? readFileSync(path, 'utf8') : '';
        return {
          ticks: ticksIn(text),
          console: text,
          running: dir !== undefined && guestPid(dir) !== undefined,
        };
      },
      // Enrollment brings the hypervisor online; its capabilities come with the first heartbeat.
      reportedCapabilities: () =>
        eventually(
          async () => (await findHypervisor(env.db, hypervisor.id))?.reported_capabilities ?? undefined,
          15_000,
          'the first heartbeat',
        ),
    };
    hosts.push(created);
    return created;
  }

  /** A small instance of the customer, created on the host through the provisioning workflow. */
  async function instanceOn(host: QemuHost) {
    const instance = await seed.instance(env.db, {
      userId: env.client.id,
      locationId: host.hypervisor.location_id,
      hypervisorId: host.hypervisor.id,
      status: 'provisioning',
    });
    await env.db.updateTable('instances').set(SMALL_GUEST).where('id', '=', instance.id).execute();
    const begun = await provisionInstance(
      env.deps,
      { type: 'system', name: 'test' },
      { ...instance, ...SMALL_GUEST },
      FAST_IMAGE,
      null,
    );
    await env.temporal.workflow.getHandle(begun.workflowId).result();
    return instance;
  }

  /** Two hosts of a new location and a guest ticking on the first. */
  async function pair() {
    const location = (await seed.location(env.db)).id;
    const source = await host(location);
    const target = await host(location);
    const instance = await instanceOn(source);
    await ticksPast(source, instance.id, 2);
    return { source, target, instance };
  }

  /** Where the panel places the instance, and its status. */
  const placement = (instanceId: string) =>
    env.db
      .selectFrom('instances')
      .select(['hypervisor_id', 'status'])
      .where('id', '=', instanceId)
      .executeTakeFirstOrThrow();

  /** Ends every guest the hosts started: they outlive their agents by design. */
  function killGuests(): void {
    for (const h of hosts) {
      for (const parent of ['guests', 'incoming']) {
        const root = join(h.agent.stateDir, parent);
        if (!existsSync(root)) continue;
        for (const name of readdirSync(root)) {
          const pid = guestPid(join(root, name));
          if (pid) process.kill(pid, 'SIGKILL');
        }
      }
    }
  }

  return { host, instanceOn, pair, placement, killGuests };
}

/**
 * A stack whose agents run QEMU guests and move them: a lease that outlasts a TCG guest's slowest
 * step, a quick pickup, and the source's copy kept `retentionMs` after a move (long enough to read
 * its console, or 0 so that the cleanup comes at once).
 */
export async function startQemuMigrationStack(retentionMs: number) {
  const env = await startStack({
    agents: true,
    config: {
      MIGRATION_SOURCE_RETENTION_MS: String(retentionMs),
      MIGRATION_LEASE_TTL_MS: '20000',
      AGENT_TASK_PICKUP_TIMEOUT_MS: '5000',
    },
  });
  return { env, hosts: qemuHosts(env) };
}

/** Ends the guests the hosts started (they outlive their agents by design), then the stack. */
export async function stopQemuStack(stack: { env?: Stack; hosts?: ReturnType<typeof qemuHosts> }) {
  stack.hosts?.killGuests();
  await stack.env?.close();
}

/** Waits until the guest has printed a tick above `after` (on `host`), and returns the ticks. */
export function ticksPast(host: QemuHost, instanceId: string, after: number, timeoutMs = 60_000) {
  return eventually(
    () => {
      const ticks = host.ticks(instanceId);
      return ticks.some((t) => t > after) ? ticks : undefined;
    },
    timeoutMs,
    `a tick above ${after}`,
  ).catch(async (error: Error) => {
    throw new Error(`${error.message}; ${await guestReport(host, instanceId)}`);
  });
}

/**
 * What a failed wait on a guest needs to be understood: whether its QEMU runs and in which state,
 * its console, and its agent's last words.
 */
async function guestReport(host: QemuHost, instanceId: string): Promise<string> {
  const dir = host.state().instances[instanceId]?.dir;
  const status = dir ? await runStatus(dir).catch((e: Error) => `unknown (${e.message})`) : undefined;
  const guest = dir === undefined ? 'not held by this host' : `QEMU ${status ?? 'not running'}`;
  const agent = host.agent.output.join('').split('\n').slice(-30).join('\n');
  return `guest: ${guest}; console:\n${host.console(instanceId).slice(-2000)}\nagent:\n${agent}`;
}

/** The count a guest left on its disk when it last shut down, as it said on its console. */
export function stoppedCount(console: string): number {
  const all = [...console.matchAll(/^guest: stopped at (\d+)$/gm)];
  if (all.length === 0) throw new Error(`the guest did not say where it stopped:\n${console.slice(-1500)}`);
  return Number(all.at(-1)![1]);
}

/** The content of a qcow2 disk compared: true when the guest would read the same bytes. */
export const sameDiskContent = (a: string, b: string) => {
  try {
    execFileSync('qemu-img', ['compare', '-q', a, b]);
    return true;
  } catch {
    return false;
  }
};

/**
 * Whether `password` is the user's in the guest: the guest itself checks it against the hash in
 * the /etc/shadow on its disk, with busybox's crypt (not the agent's), over its channel.
 */
export async function guestKnowsPassword(dir: string, user: string, password: string): Promise<boolean> {
  const answer = await askGuest(
    dir,
    { verb: 'check-password', user, argument: Buffer.from(password, 'utf8').toString('base64') },
    { timeoutMs: 60_000 },
  );
  if (!answer.ok) throw new Error(`the guest could not check the password: ${answer.detail}`);
  return answer.detail === 'match';
}
