/**
 * A plan change on a real guest (BENCH_PARTS=resize): a 128 MB busybox guest, booted with room to
 * grow to 2 vCPUs and 512 MB, grows hot to 2 vCPUs and 384 MB through the Application API and
 * shrinks back cold (stopped, resized, started). Figures: each change's request → applied (as
 * resizes.ts counts it), and the guest's own view of it over its serial console (`nproc`,
 * MemTotal): the hot grow seen with no boot and its count going on (exactly 256 MB more), the cold
 * shrink's new boot and the size seen after it. The cold boot's MemTotal is not the first boot's to
 * the KB: it boots with the API's room to grow (RESIZE_HOT_MAX_*, the defaults here), so it is held
 * to one vCPU and at most 128 MB.
 */

import { guestSeenSize, type SeenSize } from '../test/support/guest-size.js';
import { poll, provisionedGuest, type QemuBenchInput, startQemuHypervisors } from './qemu-guests.js';
import { type GuestChange, timedResize } from './resizes.js';

const CEILING = { RESIZE_HOT_MAX_CPU_CORES: 2, RESIZE_HOT_MAX_MEMORY_MB: 512 };
const BOOT: GuestChange = { cpu_cores: 1, memory_mb: 128 };
const GROWN: GuestChange = { cpu_cores: 2, memory_mb: 384 };
/** A cold change stops and boots a guest under TCG: seconds, not the simulated driver's milliseconds. */
const SETTLE_LIMIT_MS = 120_000;

export interface QemuResizeRow {
  readonly change: string;
  readonly mode: 'hot' | 'cold';
  /** Request → applied in the panel, or why it failed. */
  readonly appliedMs: number | undefined;
  /** Request → the guest booted again (cold only). */
  readonly bootedMs: number | undefined;
  /** Request → the guest says its new size. */
  readonly seenMs: number | undefined;
  readonly seen: SeenSize | undefined;
  /** Boots the change cost: 0 hot, 1 cold. */
  readonly boots: number;
  readonly failure: string | undefined;
}

export async function benchQemuResizes(
  input: QemuBenchInput & { adminKey: string; pollDb: QemuBenchInput['db'] },
): Promise<QemuResizeRow[] | undefined> {
  const qemu = await startQemuHypervisors(input, 'resize (real guests)');
  if (!qemu) return undefined;
  const rows: QemuResizeRow[] = [];
  try {
    const guest = await provisionedGuest(
      { ...input, deps: { ...input.deps, config: { ...input.deps.config, ...CEILING } } },
      qemu,
      'bench-resize',
    );
    const dir = qemu.guestDir(0, guest.id)!;
    const consoleText = () => qemu.consoleOf(0, guest.id);
    const boots = () => consoleText().split('guest: booted').length - 1;
    const lastTick = () =>
      Math.max(0, ...[...consoleText().matchAll(/^tick (\d+)\r?$/gm)].map((m) => Number(m[1])));
    const target = {
      apiUrl: input.apiUrl,
      adminKey: input.adminKey,
      instanceId: guest.id,
      pollDb: input.pollDb,
    };
    const before = await guestSeenSize(dir, consoleText);

    // Hot: no boot, the count goes on, the guest sees a vCPU and 256 MB more.
    let bootsBefore = boots();
    const tickBefore = lastTick();
    let started = performance.now();
    const hot = await timedResize(target, GROWN, 'hot', SETTLE_LIMIT_MS);
    let seen: SeenSize | undefined;
    const hotSeen = await poll(async () => {
      seen = await guestSeenSize(dir, consoleText);
      return seen.cpus === GROWN.cpu_cores &&
        seen.memoryKb - before.memoryKb === (GROWN.memory_mb - BOOT.memory_mb) * 1024
        ? performance.now() - started
        : undefined;
    }, 'the guest to see its new vCPU and memory').catch(() => undefined);
    await poll(() => (lastTick() > tickBefore + 1 ? true : undefined), 'the count to go on');
    rows.push({
      change: `${BOOT.cpu_cores} → ${GROWN.cpu_cores} vCPUs, ${BOOT.memory_mb} → ${GROWN.memory_mb} MB`,
      mode: 'hot',
      appliedMs: 'ms' in hot ? hot.ms : undefined,
      bootedMs: undefined,
      seenMs: hotSeen,
      seen,
      boots: boots() - bootsBefore,
      failure:
        'failure' in hot
          ? hot.failure
          : hotSeen === undefined
            ? `the guest saw ${JSON.stringify(seen)}`
            : undefined,
    });

    // Cold: one boot with the smaller size, which the guest sees after it.
    bootsBefore = boots();
    started = performance.now();
    const cold = await timedResize(target, BOOT, 'cold', SETTLE_LIMIT_MS);
    const booted = await poll(
      () =>
        boots() > bootsBefore && /^tick \d+\r?$/m.test(consoleText().split('guest: booted').at(-1)!)
          ? performance.now() - started
          : undefined,
      'the guest to boot with its new size',
    ).catch(() => undefined);
    seen = booted === undefined ? undefined : await guestSeenSize(dir, consoleText).catch(() => undefined);
    const seenMs = seen ? performance.now() - started : undefined;
    rows.push({
      change: `${GROWN.cpu_cores} → ${BOOT.cpu_cores} vCPUs, ${GROWN.memory_mb} → ${BOOT.memory_mb} MB`,
      mode: 'cold',
      appliedMs: 'ms' in cold ? cold.ms : undefined,
      bootedMs: booted,
      seenMs,
      seen,
      boots: boots() - bootsBefore,
      failure:
        'failure' in cold
          ? cold.failure
          : seen?.cpus !== BOOT.cpu_cores || seen.memoryKb > BOOT.memory_mb * 1024
            ? `the guest saw ${JSON.stringify(seen)}, not ${BOOT.cpu_cores} vCPU and at most ${BOOT.memory_mb} MB`
            : undefined,
    });
  } finally {
    qemu.killGuests();
  }
  return rows;
}
