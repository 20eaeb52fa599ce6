import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../platform/logger.js';

export interface ReconnectBackoff {
  readonly startMs: number;
  readonly maxMs: number;
}

/**
 * The PostgreSQL notification channel on which a queued task is announced (its payload the
 * hypervisor's id): queueing a task notifies it in the same statement (repositories/agent-tasks.ts).
 */
export const TASK_CHANNEL = 'agent_tasks';

const DEFAULT_BACKOFF: ReconnectBackoff = { startMs: 250, maxMs: 30_000 };

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
  #client: pg.Client | undefined;
  #listening = false;
  #closed = false;
  #probe: ((payload: string) => void) | undefined;
  #retryDelayMs: number;
  #retryTimer: NodeJS.Timeout | undefined;
  #sweepTimer: NodeJS.Timeout | undefined;
  readonly #backoff: ReconnectBackoff;
  readonly #overlooked: OverlookedTasks | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    options: TaskFeedOptions = {},
  ) {
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.#overlooked = options.overlooked;
    this.#retryDelayMs = this.#backoff.startMs;
  }

  get listening(): boolean {
    return this.#listening;
  }

  /** How often the sweep looks for tasks no announcement brought: often while nothing is heard. */
  get sweepMs(): number {
    return this.#listening ? 1_000 : 100;
  }

  /** Connects and listens; on failure, agents are served by the sweep while it retries. */
  async start(): Promise<void> {
    await this.#connect();
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
      const found = await this.#overlooked(hypervisors, this.#listening ? this.sweepMs : 0);
      for (const [hypervisorId, tasks] of found)
        for (const done of [...(this.#waiters.get(hypervisorId) ?? [])].slice(0, tasks)) done(false);
    } catch (error) {
      this.logger.warn('task feed sweep failed', { error });
    }
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: 'cloudsvc-task-feed',
    });
    let established = false;
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (this.#client === client) {
        this.#client = undefined;
        this.#listening = false;
      }
      void client.end().catch(() => {});
      if (this.#closed) return;
      const retryInMs = this.#retryDelayMs;
      this.#retryDelayMs = Math.min(retryInMs * 2, this.#backoff.maxMs);
      this.logger.warn(
        established
          ? 'task feed connection lost; polling until it is back'
          : 'task feed cannot LISTEN; polling until it can',
        { error, retry_in_ms: retryInMs },
      );
      this.#retryTimer = setTimeout(() => void this.#connect(), retryInMs);
      this.#retryTimer.unref();
    };
    client.on('notification', (message) => {
      this.#probe?.(message.payload ?? '');
      this.#wake(message.payload ?? '');
    });
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${TASK_CHANNEL}`);
      this.#client = client;
      const arrived = await this.#notificationsArrive();
      if (lost || this.#closed) return;
      established = true;
      this.#listening = arrived;
      this.#retryDelayMs = this.#backoff.startMs;
      if (arrived) {
        this.logger.info('task feed listening');
      } else {
        this.logger.warn(
          'notifications do not cross connections here (a pooler?); agents are served by the sweep',
        );
      }
    } catch (error) {
      onLost(error);
    }
  }

  /**
   * LISTEN can succeed where notifications never arrive from other connections (a pooler that
   * hands each statement another server session): send one from a second connection and wait.
   */
  async #notificationsArrive(): Promise<boolean> {
    const probe = `probe:${randomUUID()}`;
    const heard = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 1_000);
      this.#probe = (payload) => {
        if (payload !== probe) return;
        clearTimeout(timer);
        resolve(true);
      };
    });
    const sender = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: 'cloudsvc-task-feed',
    });
    sender.on('error', () => {});
    try {
      await sender.connect();
      await sender.query('select pg_notify($1, $2)', [TASK_CHANNEL, probe]);
      return await heard;
    } finally {
      this.#probe = undefined;
      await sender.end().catch(() => {});
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
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#sweepTimer);
    for (const waiters of this.#waiters.values()) for (const done of [...waiters]) done(false);
    await this.#client?.end().catch(() => {});
  }
}
