import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../../platform/logger.js';

/**
 * Wakes long-polling agents when a task is queued for their hypervisor. The worker announces
 * each task with NOTIFY agent_tasks; this process LISTENs on one dedicated connection. Where
 * LISTEN is unavailable (embedded PGlite) or a notification is missed, waiters also re-check on
 * a short interval, which also finds tasks whose lease lapsed.
 */
export class TaskFeed {
  readonly #waiters = new Map<string, Set<() => void>>();
  #client: pg.Client | undefined;
  #listening = false;
  #closed = false;
  #probe: ((payload: string) => void) | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  get listening(): boolean {
    return this.#listening;
  }

  /** How long a waiter sleeps before looking again without a notification. */
  get recheckMs(): number {
    return this.#listening ? 1_000 : 100;
  }

  async start(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: 'cloudsvc-task-feed',
    });
    client.on('notification', (message) => {
      this.#probe?.(message.payload ?? '');
      this.#wake(message.payload ?? '');
    });
    client.on('error', (error) => {
      this.logger.warn('task feed connection lost; polling until it is back', { error });
      this.#listening = false;
      this.#client = undefined;
      if (!this.#closed) setTimeout(() => void this.start().catch(() => {}), 1_000).unref();
    });
    try {
      await client.connect();
      await client.query('LISTEN agent_tasks');
      this.#client = client;
      this.#listening = await this.#notificationsArrive();
      if (!this.#listening) {
        this.logger.warn(
          'notifications do not cross connections here (embedded database?); agents are served by polling',
        );
      }
    } catch (error) {
      this.logger.warn('task feed cannot LISTEN; agents are served by polling', { error });
      await client.end().catch(() => {});
    }
  }

  /**
   * LISTEN can succeed where notifications never arrive from other connections (PGlite serves
   * every connection from one session): send one from a second connection and wait for it.
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
    try {
      await sender.connect();
      await sender.query('select pg_notify($1, $2)', ['agent_tasks', probe]);
    } finally {
      await sender.end().catch(() => {});
    }
    const arrived = await heard;
    this.#probe = undefined;
    return arrived;
  }

  /** Resolves when a task is announced for the hypervisor, after `ms`, or when `signal` aborts. */
  wait(hypervisorId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(hypervisorId) ?? new Set();
      this.#waiters.set(hypervisorId, waiters);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(hypervisorId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done);
      waiters.add(done);
    });
  }

  #wake(hypervisorId: string): void {
    for (const done of [...(this.#waiters.get(hypervisorId) ?? [])]) done();
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiters of this.#waiters.values()) for (const done of [...waiters]) done();
    await this.#client?.end().catch(() => {});
  }
}
