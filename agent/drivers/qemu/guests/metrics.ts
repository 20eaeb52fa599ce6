import { readFileSync } from 'node:fs';
import type { InstanceSample } from '../../driver.js';
import type { TapCounters } from '../network/host-network.js';
import { guestFiles, guestPid } from './guest-process.js';
import { Qmp } from './qmp.js';
import type { QemuState } from './state.js';

const CLOCK_TICKS_PER_SECOND = 100;

/** The bridged network's taps, whose counters are the guests' public traffic. */
export interface GuestTaps {
  counters(): Promise<Map<string, TapCounters>>;
  tap(instanceId: string): string;
}

type Counters = { read: number; written: number };

/**
 * Samples of the running guests as the host sees them: CPU and memory of each QEMU process
 * (/proc), the bytes its disk read and wrote since the previous sample (QMP's counters), and on
 * the bridged network the bytes its public tap carried since then (what the guest sent is what
 * the tap received). The counters are read after each sample, for the next: a sample never waits.
 * The user-mode network has no tap: its traffic is not measured.
 */
export class GuestMetrics {
  readonly #cpuTimes = new Map<string, { ticks: number; at: number }>();
  /** The guests' disk counters as QMP last gave them, and as the last sample reported them. */
  readonly #diskCounters = new Map<string, Counters>();
  readonly #diskReported = new Map<string, Counters>();
  readonly #tapCounters = new Map<string, TapCounters>();
  readonly #tapReported = new Map<string, TapCounters>();

  constructor(
    private readonly state: QemuState,
    private readonly taps?: GuestTaps,
  ) {}

  sample(now: Date): InstanceSample[] {
    const samples: InstanceSample[] = [];
    for (const [id, instance] of Object.entries(this.state.instances)) {
      const pid = guestPid(instance.dir);
      if (!pid) continue;
      let ticks = 0;
      let rssKb = 0;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks = Number(fields[11]) + Number(fields[12]);
        rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      } catch {
        continue;
      }
      const last = this.#cpuTimes.get(id);
      this.#cpuTimes.set(id, { ticks, at: now.getTime() });
      const elapsedS = last ? (now.getTime() - last.at) / 1000 : 0;
      const cpu = last && elapsedS > 0 ? ((ticks - last.ticks) / CLOCK_TICKS_PER_SECOND / elapsedS) * 100 : 0;
      samples.push({
        instance_uuid: id,
        sampled_at: now.toISOString(),
        cpu_percent: Math.round(Math.max(0, cpu) * 10) / 10,
        memory_used_mb: Math.min(instance.memory_mb, Math.round(rssKb / 1024)),
        ...this.#diskSince(id),
        ...this.#trafficSince(id),
      });
    }
    const sampled = samples.map((s) => s.instance_uuid);
    void this.#refreshDiskCounters(sampled);
    void this.#refreshTapCounters(sampled);
    return samples;
  }

  #diskSince(instanceId: string): { disk_read_bytes: number; disk_write_bytes: number } {
    const [read, written] = since(this.#diskCounters, this.#diskReported, instanceId, ['read', 'written']);
    return { disk_read_bytes: read, disk_write_bytes: written };
  }

  #trafficSince(instanceId: string): { net_rx_bytes: number; net_tx_bytes: number } {
    // The tap's rx is what the guest sent; its tx what the guest received.
    const [sent, received] = since(this.#tapCounters, this.#tapReported, instanceId, ['rx', 'tx']);
    return { net_rx_bytes: received, net_tx_bytes: sent };
  }

  async #refreshTapCounters(instanceIds: string[]): Promise<void> {
    if (!this.taps) return;
    const counters = await this.taps.counters().catch(() => new Map<string, TapCounters>());
    for (const id of instanceIds) {
      const tap = counters.get(this.taps.tap(id));
      if (tap) this.#tapCounters.set(id, tap);
      else {
        // A tap made anew (a boot) counts from zero: the next sample starts from there.
        this.#tapCounters.delete(id);
        this.#tapReported.delete(id);
      }
    }
  }

  async #refreshDiskCounters(instanceIds: string[]): Promise<void> {
    for (const id of instanceIds) {
      const dir = this.state.instances[id]?.dir;
      if (!dir) continue;
      try {
        const stats = await Qmp.with(guestFiles(dir).qmp, (qmp) =>
          qmp.execute<{ stats: { rd_bytes: number; wr_bytes: number } }[]>('query-blockstats'),
        );
        this.#diskCounters.set(id, {
          read: stats.reduce((sum, s) => sum + s.stats.rd_bytes, 0),
          written: stats.reduce((sum, s) => sum + s.stats.wr_bytes, 0),
        });
      } catch {
        // A guest stopping between the sample and the query: its counters end with it.
        this.#diskCounters.delete(id);
        this.#diskReported.delete(id);
      }
    }
  }
}

/**
 * What a counter grew by since the last sample reported it (zero for the first, or for a counter
 * that went back, its guest restarted), and the current values kept as reported.
 */
function since<K extends string>(
  current: Map<string, Record<K, number>>,
  reported: Map<string, Record<K, number>>,
  id: string,
  [first, second]: readonly [K, K],
): [number, number] {
  const now = current.get(id);
  const before = reported.get(id);
  if (now) reported.set(id, now);
  const grew = (key: K) => (now && before ? Math.max(0, now[key] - before[key]) : 0);
  return [grew(first), grew(second)];
}
