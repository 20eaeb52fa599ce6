import type { Database } from '../../db/database.js';
import { NotificationListener } from '../../db/notification-listener.js';
import { ApiError } from '../../domain/errors.js';
import type { Logger } from '../../platform/logger.js';
import { type FeedSubscriber, FeedSubscribers } from './feed-subscribers.js';
import { OutboxPublisher } from './outbox-publisher.js';

/** The channel the outbox announces new events on (db/migrations/20261206T0100_event_stream.ts). */
export const EVENTS_CHANNEL = 'outbox_events';
/** While the horizon waits for transactions in flight to end, it looks again this soon. */
const LOOK_AGAIN_MS = 50;
/** How long a request waits for the first horizon (the process has just started) before a 503. */
const READY_WITHIN_MS = 5_000;

/**
 * The process's one reader of the outbox for every event stream (docs/events.md "The stream").
 * One dedicated connection LISTENs for announcements; each wakes one look, which moves the
 * horizon and reads what it passed once, for all streams, which filter it in memory
 * (outbox-publisher.ts). A sweep every EVENT_STREAM_SWEEP_MS stands in for announcements that
 * never came. No connection of the pool is held between looks.
 */
export class EventFeed {
  readonly #subscribers = new FeedSubscribers();
  readonly #publisher: OutboxPublisher;
  readonly #listener: NotificationListener;
  #looking = false;
  #lookAgain = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #becameReady!: () => void;
  readonly #ready = new Promise<void>((resolve) => {
    this.#becameReady = resolve;
  });

  constructor(
    db: Database,
    private readonly options: { databaseUrl: string; logger: Logger; sweepMs: number },
  ) {
    this.#publisher = new OutboxPublisher(db, this.#subscribers);
    this.#listener = new NotificationListener({
      databaseUrl: options.databaseUrl,
      channel: EVENTS_CHANNEL,
      name: 'event feed',
      fallback: 'sweeping',
      applicationName: 'cloudsvc-event-feed',
      logger: options.logger,
      onNotify: () => this.#look(),
      onListening: () => this.#look(),
    });
  }

  /** Listens, and looks at once; the horizon is known after the first looks (`ready`). */
  async start(): Promise<void> {
    await this.#listener.start();
    this.#look();
  }

  /** Resolves once the horizon is known; a database that does not answer for `READY_WITHIN_MS` is a 503. */
  async ready(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ApiError('SVC-SYS-503')), READY_WITHIN_MS);
    });
    try {
      await Promise.race([this.#ready, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The horizon: every event up to it has been offered to the subscribers there were. */
  get horizon(): number {
    const published = this.#publisher.published;
    if (published === undefined) throw new Error('the event feed is not ready yet');
    return published;
  }

  /**
   * Offers every batch after `horizon` (read at the same moment) to `subscriber`, until
   * unsubscribed; undefined when `key` already holds `max` subscriptions in this process.
   */
  subscribe(
    subscriber: FeedSubscriber,
    limit: { key: string; max: number },
  ): { horizon: number; unsubscribe(): void } | undefined {
    const horizon = this.horizon;
    const unsubscribe = this.#subscribers.add(subscriber, limit);
    return unsubscribe && { horizon, unsubscribe };
  }

  #look = (): void => {
    if (this.#closed) return;
    if (this.#looking) {
      this.#lookAgain = true;
      return;
    }
    this.#looking = true;
    clearTimeout(this.#timer);
    void this.#publisher
      .observe()
      .catch((error) => this.options.logger.warn('event feed could not read the outbox', { error }))
      .finally(() => {
        this.#looking = false;
        if (this.#publisher.published !== undefined) this.#becameReady();
        if (this.#closed) return;
        if (this.#lookAgain) {
          this.#lookAgain = false;
          this.#look();
          return;
        }
        const inMs = this.#publisher.waiting ? LOOK_AGAIN_MS : this.options.sweepMs;
        this.#timer = setTimeout(this.#look, inMs);
        this.#timer.unref();
      });
  };

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#subscribers.closeAll();
    await this.#listener.close();
  }
}
