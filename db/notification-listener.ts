import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../platform/logger.js';

export interface ReconnectBackoff {
  readonly startMs: number;
  readonly maxMs: number;
}

export interface ListenerOptions {
  readonly databaseUrl: string;
  readonly channel: string;
  /** Names the owner in the log: 'task feed'. */
  readonly name: string;
  /** What serves the owner while nothing is heard, for the log: 'polling'. */
  readonly fallback: string;
  readonly applicationName: string;
  readonly logger: Logger;
  readonly backoff?: ReconnectBackoff;
  /** Called with the payload of every notification on the channel. */
  readonly onNotify: (payload: string) => void;
  /** Called each time listening (re)starts: notifications sent while it was down are lost. */
  readonly onListening?: () => void;
}

const DEFAULT_BACKOFF: ReconnectBackoff = { startMs: 250, maxMs: 30_000 };
/** Payloads of our own probes (`#notificationsArrive`), of this process or another: never the owner's. */
const PROBE_PREFIX = 'probe:';

/**
 * One dedicated connection that LISTENs on a channel for the whole process. A lost connection,
 * and every failed attempt to get it back, is retried with capped exponential backoff; meanwhile
 * the owner's own sweep or poll stands in for the notifications.
 */
export class NotificationListener {
  #client: pg.Client | undefined;
  #hearing = false;
  #closed = false;
  #probe: ((payload: string) => void) | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryDelayMs: number;
  readonly #backoff: ReconnectBackoff;

  constructor(private readonly options: ListenerOptions) {
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.#retryDelayMs = this.#backoff.startMs;
  }

  /** Notifications from other connections arrive: false while reconnecting, or behind a pooler. */
  get listening(): boolean {
    return this.#hearing;
  }

  /** Connects and listens; on failure, retries in the background. */
  async start(): Promise<void> {
    if (this.#closed) return;
    const { databaseUrl, channel, name, fallback, onNotify, logger, applicationName } = this.options;
    const client = new pg.Client({ connectionString: databaseUrl, application_name: applicationName });
    let established = false;
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (this.#client === client) {
        this.#client = undefined;
        this.#hearing = false;
      }
      void client.end().catch(() => {});
      if (this.#closed) return;
      const retryInMs = this.#retryDelayMs;
      this.#retryDelayMs = Math.min(retryInMs * 2, this.#backoff.maxMs);
      logger.warn(
        established
          ? `${name} connection lost; ${fallback} until it is back`
          : `${name} cannot LISTEN; ${fallback} until it can`,
        { error, retry_in_ms: retryInMs },
      );
      this.#retryTimer = setTimeout(() => void this.start(), retryInMs);
      this.#retryTimer.unref();
    };
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      if (message.channel !== channel) return;
      if (payload.startsWith(PROBE_PREFIX)) this.#probe?.(payload);
      else onNotify(payload);
    });
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('connection ended')));
    try {
      await client.connect();
      // The channel is a constant of ours, never input: LISTEN takes no parameters.
      await client.query(`LISTEN ${channel}`);
      this.#client = client;
      const arrived = await this.#notificationsArrive();
      if (lost || this.#closed) return;
      established = true;
      this.#hearing = arrived;
      this.#retryDelayMs = this.#backoff.startMs;
      if (arrived) logger.info(`${name} listening`);
      else logger.warn(`notifications do not cross connections here (a pooler?); ${name} is ${fallback}`);
      this.options.onListening?.();
    } catch (error) {
      onLost(error);
    }
  }

  /**
   * LISTEN can succeed where notifications never arrive from other connections (a pooler that
   * hands each statement another server session): send one from a second connection and wait.
   */
  async #notificationsArrive(): Promise<boolean> {
    const probe = `${PROBE_PREFIX}${randomUUID()}`;
    const heard = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 1_000);
      this.#probe = (payload) => {
        if (payload !== probe) return;
        clearTimeout(timer);
        resolve(true);
      };
    });
    const sender = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: this.options.applicationName,
    });
    sender.on('error', () => {});
    try {
      await sender.connect();
      await sender.query('select pg_notify($1, $2)', [this.options.channel, probe]);
      return await heard;
    } finally {
      this.#probe = undefined;
      await sender.end().catch(() => {});
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    await this.#client?.end().catch(() => {});
    this.#client = undefined;
  }
}
