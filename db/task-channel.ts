import type { Logger } from '../platform/logger.js';
import { NotificationListener, type ReconnectBackoff } from './notification-listener.js';

/**
 * The PostgreSQL notification channel on which a queued task is announced (its payload the
 * hypervisor's id): queueing a task notifies it in the same statement
 * (repositories/hypervisors/agent-task-queue.ts).
 */
export const TASK_CHANNEL = 'agent_tasks';

/** Of these hypervisors, those with tasks no announcement brought to a poll, and how many. */
export type OverlookedTasks = (
  hypervisorIds: readonly string[],
  queuedForMs: number,
) => Promise<Map<string, number>>;

export interface TaskFeedOptions {
  readonly backoff?: ReconnectBackoff;
  /**
   * Looked up for every hypervisor with a waiting poll, once a sweep (`sweepMs`), rather than by
   * each poll: where LISTEN is unavailable (behind a pooler in transaction mode), where a
   * notification is missed, and for tasks whose lease lapsed. Without it, only announcements wake.
   */
  readonly overlooked?: OverlookedTasks;
}

/**
 * Wakes long-polling agents when a task is queued for their hypervisor. The worker announces
 * each task on TASK_CHANNEL; this process LISTENs on one dedicated connection. A sweep finds, in
 * one query for all waiting polls, the tasks no announcement brought (`overlooked`) and wakes a
 * poll for each: a re-check by every poll each second cost 2,000 queries a second with 500
 * agents' polls open (bench:scale). A lost connection, and every failed attempt to get it back, is
 * retried with capped exponential backoff until it listens again.
 *
 * One announcement is one task, so it wakes one waiter, the longest waiting: waking all of an
 * agent's pollers sent each into a lease transaction that all but one lost, in the moments the
 * task's own reports needed the pool. A waiter that cannot use its wake passes it on (`pass`).
 * Announcements are also counted per hypervisor, so a poll that was busy leasing when one came
 * does not then sleep through it (`wait`'s `since`).
 */
export class TaskFeed {
  readonly #waiters = new Map<string, Set<(woken: boolean) => void>>();
  readonly #announced = new Map<string, number>();
  readonly #listener: NotificationListener;
  #closed = false;
  #sweepTimer: NodeJS.Timeout | undefined;
  readonly #overlooked: OverlookedTasks | undefined;

  constructor(
    databaseUrl: string,
    private readonly logger: Logger,
    options: TaskFeedOptions = {},
  ) {
    this.#overlooked = options.overlooked;
    this.#listener = new NotificationListener({
      databaseUrl,
      channel: TASK_CHANNEL,
      name: 'task feed',
      fallback: 'polling',
      applicationName: 'cloudsvc-task-feed',
      logger,
      backoff: options.backoff,
      onNotify: (hypervisorId) => this.#wake(hypervisorId),
    });
  }

  get listening(): boolean {
    return this.#listener.listening;
  }

  /** How often the sweep looks for tasks no announcement brought: often while nothing is heard. */
  get sweepMs(): number {
    return this.listening ? 1_000 : 100;
  }

  /** Connects and listens; on failure, agents are served by the sweep while it retries. */
  async start(): Promise<void> {
    await this.#listener.start();
    this.#scheduleSweep();
  }

  #scheduleSweep(): void {
    if (this.#closed || !this.#overlooked) return;
    this.#sweepTimer = setTimeout(
      () => void this.#sweep().finally(() => this.#scheduleSweep()),
      this.sweepMs,
    );
    this.#sweepTimer.unref();
  }

  /** Wakes a waiting poll, not as an announcement, for each task the lookup finds. */
  async #sweep(): Promise<void> {
    const hypervisors = [...this.#waiters.keys()];
    if (hypervisors.length === 0 || !this.#overlooked) return;
    try {
      // While listening, a task queued within the last sweep is still its announcement's to bring.
      const found = await this.#overlooked(hypervisors, this.listening ? this.sweepMs : 0);
      for (const [hypervisorId, tasks] of found)
        for (const done of [...(this.#waiters.get(hypervisorId) ?? [])].slice(0, tasks)) done(false);
    } catch (error) {
      this.logger.warn('task feed sweep failed', { error });
    }
  }

  /** How many tasks have been announced for the hypervisor so far; a poll reads it before leasing. */
  announcements(hypervisorId: string): number {
    return this.#announced.get(hypervisorId) ?? 0;
  }

  /**
   * Resolves true when a task is announced for the hypervisor (at once if one was after `since`),
   * false when the sweep finds one no announcement brought, after `ms`, when `signal` aborts, or
   * when the feed closes.
   */
  wait(hypervisorId: string, ms: number, signal?: AbortSignal, since?: number): Promise<boolean> {
    if (since !== undefined && this.announcements(hypervisorId) > since) return Promise.resolve(true);
    if (this.#closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(hypervisorId) ?? new Set();
      this.#waiters.set(hypervisorId, waiters);
      const done = (woken: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(hypervisorId);
        resolve(woken);
      };
      const aborted = () => done(false);
      const timer = setTimeout(aborted, ms);
      signal?.addEventListener('abort', aborted);
      waiters.add(done);
    });
  }

  /** Hands a wake on to the next waiter: the poll that got it could not take the task. */
  pass(hypervisorId: string): void {
    const next = this.#waiters.get(hypervisorId)?.values().next().value;
    next?.(true);
  }

  #wake(hypervisorId: string): void {
    this.#announced.set(hypervisorId, this.announcements(hypervisorId) + 1);
    this.pass(hypervisorId);
  }

  /** Closed: the process is stopping, and a poll should answer now rather than wait. */
  get closed(): boolean {
    return this.#closed;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#sweepTimer);
    for (const waiters of this.#waiters.values()) for (const done of [...waiters]) done(false);
    await this.#listener.close();
  }
}
