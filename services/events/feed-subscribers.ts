import type { StreamedEventRow } from '../../db/repositories/events/outbox-reads.js';

/** Every event after `after` up to `through`, of every customer, oldest first. */
export interface EventBatch {
  readonly after: number;
  readonly through: number;
  readonly rows: readonly StreamedEventRow[];
}

export interface FeedSubscriber {
  offer(batch: EventBatch): void;
  /** The feed is closing (the process stops): the stream ends and its client reconnects elsewhere. */
  close(): void;
}

/** The streams of one process that the feed offers its batches to, each under its key. */
export class FeedSubscribers {
  readonly #entries = new Set<{ subscriber: FeedSubscriber; key: string }>();

  get size(): number {
    return this.#entries.size;
  }

  /** Adds `subscriber` and returns its removal; undefined when `key` already holds `max` here. */
  add(subscriber: FeedSubscriber, limit: { key: string; max: number }): (() => void) | undefined {
    const held = [...this.#entries].filter((s) => s.key === limit.key).length;
    if (held >= limit.max) return undefined;
    const entry = { subscriber, key: limit.key };
    this.#entries.add(entry);
    return () => this.#entries.delete(entry);
  }

  offer(batch: EventBatch): void {
    for (const { subscriber } of this.#entries) subscriber.offer(batch);
  }

  closeAll(): void {
    for (const { subscriber } of this.#entries) subscriber.close();
    this.#entries.clear();
  }
}
