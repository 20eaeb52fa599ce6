import type { AgentTaskType } from '../../domain/agent-tasks.js';
import type { HotplugCeiling } from '../../domain/instances/hot-resize.js';
import type { TaskProgressDetails } from '../../domain/migrations/live-progress.js';

/** What the agent gives a driver while it executes one task. */
export interface TaskContext {
  /** Aborted when the panel says stop (cancelled or superseded) or the agent shuts down. */
  readonly signal: AbortSignal;
  /** `details`: the figures behind the percent (a live move's QEMU figures), sent with it to the panel. */
  progress(percent: number, message?: string, details?: TaskProgressDetails): void;
  /**
   * Redeems a migration's transfer token through the panel (once: a second redemption is
   * refused) and learns where the sending hypervisor offers the disk.
   */
  redeemTransfer(token: string): Promise<{ migration_uuid: string; disk: string; endpoint: string }>;
}

export interface Capacity {
  readonly cpu_cores: number;
  readonly memory_mb: number;
  readonly disk_mb: number;
}

export interface InstanceSample {
  readonly instance_uuid: string;
  readonly sampled_at: string;
  readonly cpu_percent: number;
  readonly memory_used_mb: number;
  readonly disk_read_bytes: number;
  readonly disk_write_bytes: number;
  readonly net_rx_bytes: number;
  readonly net_tx_bytes: number;
}

/** A guest the hypervisor really holds, as its inventory reports it (POST /agent/inventory). */
export interface GuestReport {
  readonly instance_uuid: string;
  readonly power_state: 'running' | 'stopped';
  /** A running guest's room to grow as its process was booted with (hot-resize.ts runningRoom); null: none. */
  readonly hot_ceiling?: HotplugCeiling | null;
}

/**
 * The hypervisor edge. Every operation must be idempotent: a task whose agent died mid-way is
 * offered again, and executing it twice must leave the hypervisor as executing it once.
 */
export interface HypervisorDriver {
  execute(type: AgentTaskType, params: unknown, ctx: TaskContext): Promise<Record<string, unknown>>;
  freeCapacity(): Capacity;
  sample(now: Date): InstanceSample[];
  /**
   * The guests the host really holds, looked at afresh (not what the driver last did to them): the
   * panel corrects its records from it. Cheap enough to call every heartbeat.
   */
  guests(): Promise<GuestReport[]>;
}

/** A failure the driver understood: reported to the panel with its code. */
export class DriverFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
