/**
 * Real guests (BENCH_PARTS=qemu): two hypervisors whose agents run the QEMU driver, a 128 MB guest
 * created through the provisioning workflow, then moved live back and forth through the migration
 * workflow. Figures: create to running (the panel's status, and the guest's first tick on its
 * serial console), and per live migration its total time (request to COMPLETED), the memory move
 * alone (the LIVE_MIGRATING step) and QEMU's downtime.
 */

import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configuredKernel, FAST_IMAGE, qemuGuestsMissing } from '../agent/drivers/qemu/availability.js';
import { probeAccelerator } from '../agent/drivers/qemu/guests/accelerator.js';
import { guestFiles, guestPid } from '../agent/drivers/qemu/guests/guest-process.js';
import type { QemuState } from '../agent/drivers/qemu/guests/state.js';
import { qemuStatePath } from '../agent/drivers/qemu/guests/state.js';
import type { Database } from '../db/database.js';
import { createCredential } from '../db/repositories/accounts/credentials.js';
import { insertUser } from '../db/repositories/accounts/users.js';
import { findHypervisor, insertHypervisor } from '../db/repositories/hypervisors/hypervisors.js';
import { findInstance, insertInstance } from '../db/repositories/instances/instances.js';
import { findMigration } from '../db/repositories/moves/migration-records.js';
import type { ServiceDeps } from '../services/context.js';
import { provisionInstance } from '../services/instances/provision.js';
import { requestMigration } from '../services/migrations/request.js';

const GUEST = { cpu_cores: 1, memory_mb: 128, disk_mb: 64 } as const;
const LIMIT_MS = 120_000;

/** Polls `check` every 20 ms until it gives a value, for at most 2 minutes. */
export async function poll<T>(check: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const deadline = performance.now() + LIMIT_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** What the QEMU parts are given by the bench. */
export interface QemuBenchInput {
  deps: ServiceDeps;
  db: Database;
  apiUrl: string;
  locationId: string;
  userId: string;
  /** Starts a compiled entry point as a child process the bench ends. */
  launch: (entry: string, env: Record<string, string>) => unknown;
}

/** Two hypervisors whose agents run the QEMU driver under one accelerator, and what a part asks of them. */
export interface QemuHypervisors {
  readonly ids: readonly string[];
  readonly stateDirs: readonly string[];
  /** The guest's directory on the hypervisor at `index`, once it has one. */
  guestDir(index: number, instanceId: string): string | undefined;
  /** The guest's serial console on the hypervisor at `index` ('' before it has one). */
  consoleOf(index: number, instanceId: string): string;
  /** Ends every guest the agents started: they outlive their agents by design. */
  killGuests(): void;
}

/**
 * Enrols two hypervisors whose agents run the QEMU driver; undefined (said so) without QEMU and
 * the guest image.
 */
export async function startQemuHypervisors(
  input: QemuBenchInput,
  label: string,
): Promise<QemuHypervisors | undefined> {
  const unavailable = qemuGuestsMissing();
  if (unavailable) {
    console.log(`${label}: skipped, ${unavailable}`);
    return undefined;
  }
  // One probe for both agents: they must run their guests alike to move them live to each other.
  const { accelerator, reason } = await probeAccelerator(configuredKernel(FAST_IMAGE)!);
  console.log(`${label}: under ${accelerator.toUpperCase()}, ${reason}`);
  const { db } = input;
  const stateDirs: string[] = [];
  const hypervisors: string[] = [];
  for (const name of ['bench-qemu-1', 'bench-qemu-2']) {
    const hv = await insertHypervisor(db, {
      name: `${name}-${randomUUID().slice(0, 8)}`,
      locationId: input.locationId,
      cpuCores: 64,
      memoryMb: 65_536,
      diskMb: 1_000_000,
      capabilities: ['live_migration'],
      storageBackends: ['local'],
    });
    const token = await createCredential(db, {
      type: 'enrollment',
      hypervisorId: hv.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const stateDir = mkdtempSync(join(tmpdir(), 'bench-qemu-'));
    stateDirs.push(stateDir);
    input.launch('agent/main.ts', {
      AGENT_PANEL_URL: input.apiUrl,
      AGENT_STATE_DIR: stateDir,
      AGENT_ENROLLMENT_TOKEN: token.token,
      AGENT_DRIVER: 'qemu',
      AGENT_QEMU_ACCEL: accelerator,
      AGENT_CAPACITY: JSON.stringify({ cpu_cores: 64, memory_mb: 65_536, disk_mb: 1_000_000 }),
    });
    await poll(
      async () => ((await findHypervisor(db, hv.id))?.status === 'online' ? true : undefined),
      'enrollment',
    );
    hypervisors.push(hv.id);
  }
  const stateOf = (dir: string): QemuState | undefined =>
    existsSync(qemuStatePath(dir))
      ? (JSON.parse(readFileSync(qemuStatePath(dir), 'utf8')) as QemuState)
      : undefined;
  const guestDir = (index: number, instanceId: string) =>
    stateOf(stateDirs[index]!)?.instances[instanceId]?.dir;
  return {
    ids: hypervisors,
    stateDirs,
    guestDir,
    consoleOf(index, instanceId) {
      const dir = guestDir(index, instanceId);
      return dir && existsSync(guestFiles(dir).console) ? readFileSync(guestFiles(dir).console, 'utf8') : '';
    },
    killGuests() {
      for (const stateDir of stateDirs) {
        for (const parent of ['guests', 'incoming']) {
          const root = join(stateDir, parent);
          if (!existsSync(root)) continue;
          for (const name of readdirSync(root)) {
            const pid = guestPid(join(root, name));
            if (pid) process.kill(pid, 'SIGKILL');
          }
        }
      }
    },
  };
}

/** A 128 MB guest made through the provisioning workflow on the hypervisor `hypervisorId`, running and ticking. */
export async function provisionedGuest(
  input: QemuBenchInput,
  qemu: QemuHypervisors,
  name: string,
): Promise<{ id: string; toRunningMs: number; toTickMs: number }> {
  const { db, deps } = input;
  const instance = await insertInstance(db, {
    user_id: input.userId,
    location_id: input.locationId,
    hypervisor_id: qemu.ids[0]!,
    name,
    hostname: `${name}.example.test`,
    status: 'provisioning',
    ...GUEST,
    primary_ipv4: null,
    primary_ipv6: null,
    virtualization: 'kvm',
    boot_order: JSON.stringify(['disk']),
    timezone: 'UTC',
  });
  const started = performance.now();
  const begun = await provisionInstance(deps, { type: 'system', name: 'bench' }, instance, FAST_IMAGE, null);
  await deps.temporal.workflow.getHandle(begun.workflowId).result();
  if ((await findInstance(db, instance.id))?.status !== 'running')
    throw new Error('the guest did not provision');
  const toRunningMs = performance.now() - started;
  await poll(() => (/^tick \d+$/m.test(qemu.consoleOf(0, instance.id)) ? true : undefined), 'the first tick');
  return { id: instance.id, toRunningMs, toTickMs: performance.now() - started };
}

export async function benchQemuGuests(
  input: QemuBenchInput & { creates: number; migrations: number },
): Promise<void> {
  const qemu = await startQemuHypervisors(input, 'real guests (QEMU)');
  if (!qemu) return;
  const { db, deps } = input;
  const hypervisors = qemu.ids;

  try {
    // Create to running, one guest after another; each stays, the last one is moved.
    const toRunning: number[] = [];
    const toTick: number[] = [];
    let moving: string | undefined;
    for (let i = 0; i < input.creates; i++) {
      const guest = await provisionedGuest(input, qemu, `bench-qemu-${i}`);
      toRunning.push(guest.toRunningMs);
      toTick.push(guest.toTickMs);
      moving = guest.id;
    }
    console.log(
      `real guests (QEMU, ${GUEST.memory_mb} MB, ${input.creates} creates one after another): ` +
        `create → running (panel) median ${median(toRunning).toFixed(0)} ms, ` +
        `create → first tick on the guest's console median ${median(toTick).toFixed(0)} ms`,
    );
    if (!moving || input.migrations === 0) return;

    const admin = await insertUser(db, {
      email: `bench-qemu-admin-${randomUUID()}@example.test`,
      name: 'Bench admin',
      isAdmin: true,
    });
    const total: number[] = [];
    const memoryMove: number[] = [];
    const downtime: number[] = [];
    const failures: string[] = [];
    for (let i = 0; i < input.migrations; i++) {
      const started = performance.now();
      const { migrationId } = await requestMigration(
        deps,
        { type: 'admin', userId: admin.id },
        {
          instanceId: moving,
          targetId: hypervisors[(i + 1) % 2]!,
          mode: 'LIVE_REQUIRED',
          correlationId: `bench-qemu-migration-${i}`,
        },
      );
      const settled = await poll(async () => {
        const m = await findMigration(db, migrationId);
        return m &&
          ['COMPLETED', 'CLEANING_UP', 'CLEANED_UP', 'ROLLED_BACK', 'RECOVERY_REQUIRED'].includes(m.state)
          ? m
          : undefined;
      }, 'the migration');
      if (!['COMPLETED', 'CLEANING_UP', 'CLEANED_UP'].includes(settled.state)) {
        failures.push(settled.state);
        break;
      }
      total.push(performance.now() - started);
      const live = settled.history.find((h) => h.state === 'LIVE_MIGRATING');
      const next = settled.history.find((h) => h.state === 'STARTING_TARGET');
      if (live && next) memoryMove.push(new Date(next.at).getTime() - new Date(live.at).getTime());
      const detail = live?.detail as { downtime_ms?: number } | null | undefined;
      if (typeof detail?.downtime_ms === 'number') downtime.push(detail.downtime_ms);
      // The next move starts from a guest that is clean of this one.
      await poll(async () => {
        const m = await findMigration(db, migrationId);
        return m?.state === 'CLEANED_UP' ? true : undefined;
      }, 'the source cleaned up');
    }
    console.log(
      `  live migration of the ${GUEST.memory_mb} MB guest (${total.length} moves back and forth, disk mirrored, ` +
        `request to COMPLETED): total median ${median(total).toFixed(0)} ms, memory move (LIVE_MIGRATING step) ` +
        `median ${median(memoryMove).toFixed(0)} ms, downtime (QEMU's) median ${median(downtime).toFixed(0)} ms, ` +
        `max ${Math.max(...downtime).toFixed(0)} ms; failures ${failures.length}${failures.length ? ` (${failures.join(', ')})` : ''}`,
    );
  } finally {
    qemu.killGuests();
  }
}
