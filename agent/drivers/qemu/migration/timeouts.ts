import type { ConvergencePolicy } from '../../../../domain/migrations/convergence.js';
import { ConvergenceWatch } from '../../../../domain/migrations/convergence-watch.js';
import { FAILED_AFTER_THE_SWITCH } from '../../../../domain/migrations/switch.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { sleep } from '../guests/guest-process.js';
import type { Qmp } from '../guests/qmp.js';

// A live move's policy applied on QEMU while it runs (docs/migration.md "When a move cannot
// converge", "The point of no return"): each look at the mirrors and at `query-migrate` judged by
// the convergence watch (domain/migrations/convergence-watch.ts), post-copy started when it says
// so, and the move cancelled (`migrate_cancel`, the mirrors cancelled; the guest runs on here) when
// the watch gives up or the panel cancels the task, as long as the guest has not switched. The
// switch is QEMU completing the move, or post-copy starting: from it on nothing is cancelled, and
// a failure is reported as after the switch.

/** `query-migrate`'s statuses of a move still under way (cancelling included: not settled yet). */
export const MOVING_STATUSES = [
  'setup',
  'active',
  'pre-switchover',
  'device',
  'postcopy-active',
  'postcopy-paused',
  'postcopy-recover',
  'cancelling',
  'wait-unplug',
];
const POST_COPY_STATUSES = ['postcopy-active', 'postcopy-paused', 'postcopy-recover'];
const BYTES_PER_MB = 1024 * 1024;

/** A disk's mirror: its block job, and the node of the target's export it writes to. */
export interface MirrorJob {
  readonly job: string;
  readonly node: string;
}

export interface MigrateInfo {
  status: string;
  /** Milliseconds since QEMU began this move: it outlives an agent restarted mid-move. */
  'total-time'?: number;
  'error-desc'?: string;
  ram?: { remaining?: number; total?: number; 'dirty-sync-count'?: number };
}

/** The policy's and the panel's hold on one live move, from its mirrors' start to its switch. */
export class LiveMoveGuard {
  readonly #began = Date.now();
  #switched = false;
  /** Set at the first look at the memory's move: before it, `query-migrate` may still tell of the guest's own arrival. */
  #memoryMoving = false;

  private constructor(
    private readonly qmp: Qmp,
    private readonly ctx: TaskContext,
    private readonly mirrors: readonly MirrorJob[],
    private readonly memoryBytes: number,
    private readonly watch: ConvergenceWatch | undefined,
  ) {}

  /**
   * The guard of a move whose mirrors are started: its completion timeout counts the guest's
   * memory and the disks mirrored with it (Nova's and KubeVirt's seconds per GiB). Without a
   * policy (runs begun before moves had one) only the panel's cancel applies.
   */
  static async begin(
    qmp: Qmp,
    ctx: TaskContext,
    policy: ConvergencePolicy | undefined,
    mirrors: readonly MirrorJob[],
  ): Promise<LiveMoveGuard> {
    const { 'base-memory': memory } = await qmp.execute<{ 'base-memory': number }>(
      'query-memory-size-summary',
    );
    const jobs = await qmp.execute<{ device: string; len: number }[]>('query-block-jobs');
    const disks = jobs
      .filter((j) => mirrors.some((m) => m.job === j.device))
      .reduce((sum, j) => sum + j.len, 0);
    const watch = policy ? new ConvergenceWatch(policy, (memory + disks) / BYTES_PER_MB) : undefined;
    return new LiveMoveGuard(qmp, ctx, mirrors, memory, watch);
  }

  /** Whether the guest runs on the target now: the move completed, or post-copy started. */
  get switched(): boolean {
    return this.#switched;
  }

  /** A look while the disks are mirrored, `left` bytes still to copy: cancels and throws when the move is given up. */
  async mirroring(left: number): Promise<void> {
    await this.#judge({ remainingBytes: left + this.memoryBytes, pass: 0 }, false);
  }

  /** A look at the memory's move: starts post-copy, or cancels and throws, as the policy and the panel say. */
  async moving(info: MigrateInfo): Promise<void> {
    this.#memoryMoving = true;
    if (info.status === 'completed' || POST_COPY_STATUSES.includes(info.status)) this.#switched = true;
    if (this.#switched || info.status === 'setup') return;
    const ram = info.ram ?? {};
    await this.#judge(
      { remainingBytes: ram.remaining ?? ram.total ?? this.memoryBytes, pass: ram['dirty-sync-count'] ?? 1 },
      info.status === 'active',
      (info['total-time'] ?? 0) / 1000,
    );
  }

  /**
   * The failure a move that ended `failed` or `cancelled` reports: which side of the switch it was.
   * Before it, the mirrors and their connections to the target go, so that the next move starts
   * clean.
   */
  async failure(info: MigrateInfo): Promise<DriverFailure> {
    const why = info['error-desc'] ?? `migration ${info.status}`;
    if (this.#switched || POST_COPY_STATUSES.includes(info.status))
      return new DriverFailure(FAILED_AFTER_THE_SWITCH, `${why} (after the switch)`, false);
    await this.#releaseMirrors();
    return new DriverFailure('LIVE_MIGRATION_FAILED', why, true);
  }

  /** The mirrors cancelled (the guest's disks stay its own) and their nodes on the target's exports removed. */
  async #releaseMirrors(): Promise<void> {
    const { qmp } = this;
    for (const { job } of this.mirrors)
      await qmp.execute('block-job-cancel', { device: job, force: true }).catch(() => undefined);
    for (let tries = 0; tries < 100; tries++) {
      const jobs = await qmp.execute<{ device: string }[]>('query-block-jobs');
      if (!jobs.some((j) => this.mirrors.some((m) => m.job === j.device))) break;
      await sleep(50);
    }
    for (const { node } of this.mirrors)
      await qmp.execute('blockdev-del', { 'node-name': node }).catch(() => undefined);
  }

  /** `sinceStartS`: how long QEMU says the move has run; a repeated task's guard started later. */
  async #judge(sample: { remainingBytes: number; pass: number }, postCopyPossible: boolean, sinceStartS = 0) {
    if (this.ctx.signal.aborted)
      return this.#cancel('LIVE_MIGRATION_FAILED', 'cancelled by the panel before the switch');
    if (!this.watch) return;
    const elapsedS = Math.max((Date.now() - this.#began) / 1000, sinceStartS);
    const verdict = this.watch.judge({ elapsedS, ...sample });
    if (verdict.action === 'cancel') return this.#cancel(verdict.code, verdict.detail);
    // Before the memory moves (the mirrors), post-copy cannot start yet: it is asked again then.
    if (verdict.action === 'post_copy' && postCopyPossible) {
      // The point of no return: the guest runs on the target from here on.
      this.#switched = true;
      await this.qmp.execute('migrate-start-postcopy');
    }
  }

  /**
   * Cancels the move before its switch: the memory stream and the mirrors; the guest runs on here.
   * A move that completed meanwhile is left to be followed (the next look finds it completed).
   */
  async #cancel(code: string, detail: string): Promise<void> {
    let status = 'none';
    if (this.#memoryMoving) await this.qmp.execute('migrate_cancel').catch(() => undefined);
    while (this.#memoryMoving) {
      ({ status } = await this.qmp.execute<MigrateInfo>('query-migrate'));
      if (!MOVING_STATUSES.includes(status) || POST_COPY_STATUSES.includes(status)) break;
      await sleep(50);
    }
    if (status === 'completed' || POST_COPY_STATUSES.includes(status)) {
      this.#switched = true;
      return;
    }
    await this.#releaseMirrors();
    throw new DriverFailure(code, detail, false);
  }
}
