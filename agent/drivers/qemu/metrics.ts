import { readFileSync } from 'node:fs';
import type { InstanceSample } from '../driver.js';
import { guestFiles, guestPid } from './guest-process.js';
import { Qmp } from './qmp.js';
import type { QemuState } from './state.js';

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Samples of the running guests as the host sees them: CPU and memory of each QEMU process
 * (/proc), and the bytes its disk read and wrote since the previous sample (QMP's counters, read
 * after each sample). Network traffic is not measured.
 */
export class GuestMetrics {
  readonly #cpuTimes = new Map<string, { ticks: number; at: number }>();
  /** The guests' disk counters as QMP last gave them, and as the last sample reported them. */
  readonly #diskCounters = new Map<string, { read: number; written: number }>();
  readonly #diskReported = new Map<string, { read: number; written: number }>();

  constructor(private readonly state: QemuState) {}

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
        net_rx_bytes: 0,
        net_tx_bytes: 0,
      });
    }
    void this.#refreshDiskCounters(samples.map((s) => s.instance_uuid));
    return samples;
  }

  #diskSince(instanceId: string): { disk_read_bytes: number; disk_write_bytes: number } {
    const now = this.#diskCounters.get(instanceId);
    const before = this.#diskReported.get(instanceId);
    if (now) this.#diskReported.set(instanceId, now);
    if (!now || !before) return { disk_read_bytes: 0, disk_write_bytes: 0 };
    return {
      disk_read_bytes: Math.max(0, now.read - before.read),
      disk_write_bytes: Math.max(0, now.written - before.written),
    };
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
