import type { Database } from '../../db/database.js';
import {
  findPrunedThrough,
  listEventsAfter,
  type StreamedEventRow,
} from '../../db/repositories/events/outbox-reads.js';
import { type EventFilter, eventPredicate } from '../../domain/events/filter.js';
import type { EventBatch, FeedSubscriber } from './feed-subscribers.js';

/** Events read per query while a stream catches up from the table. */
const CATCH_UP_PAGE = 200;

/** What a stream hands its client next, or why it ends. */
export type Delivery =
  | { readonly kind: 'events'; readonly rows: readonly StreamedEventRow[] }
  | { readonly kind: 'idle' }
  | { readonly kind: 'end'; readonly reason: 'too_slow' | 'shutdown' | 'expired' };

/**
 * One stream's view of the feed (docs/events.md "The stream"). It starts after `position` (the
 * Last-Event-ID, or the horizon) and reads what lies between there and the feed's horizon from
 * the table, a page at a time; from then on it takes the feed's batches, filtered, into a queue of
 * at most `capacity` events. A client that lets the queue fill is too slow: its stream ends, and
 * it resumes from its Last-Event-ID, reading from the table again, instead of this process's
 * memory growing. Nothing is handed twice: every event handed is after the last one.
 */
export class EventSubscription implements FeedSubscriber {
  #caughtUpTo = 0;
  #horizon = 0;
  #reading = false;
  #queue: StreamedEventRow[] = [];
  #ended: 'too_slow' | 'shutdown' | undefined;
  #wake: (() => void) | undefined;
  readonly #shown: (row: StreamedEventRow) => boolean;

  constructor(
    private readonly db: Database,
    private readonly filter: EventFilter,
    private readonly capacity: number,
  ) {
    this.#shown = eventPredicate(filter);
  }

  /**
   * Where the stream starts: after `position`; the feed's horizon when it subscribed says what lies
   * before its batches, which is read from the table.
   */
  start(position: number, horizon: number): void {
    this.#caughtUpTo = position;
    this.#horizon = Math.max(this.#horizon, horizon);
  }

  offer(batch: EventBatch): void {
    this.#horizon = Math.max(this.#horizon, batch.through);
    // A batch that starts where the stream stands continues it; any other leaves a gap to read.
    if (!this.#reading && batch.after <= this.#caughtUpTo && batch.through > this.#caughtUpTo) {
      for (const row of batch.rows) if (row.seq > this.#caughtUpTo && this.#shown(row)) this.#queue.push(row);
      this.#caughtUpTo = batch.through;
      if (this.#queue.length > this.capacity) {
        this.#queue = [];
        this.#ended ??= 'too_slow';
      }
    }
    this.#wake?.();
  }

  close(): void {
    this.#ended ??= 'shutdown';
    this.#wake?.();
  }

  /** The next events, or `idle` after `idleMs` with none, or why the stream ends. */
  async next(idleMs: number, signal: AbortSignal): Promise<Delivery> {
    for (;;) {
      if (this.#ended) return { kind: 'end', reason: this.#ended };
      if (this.#queue.length > 0) {
        const rows = this.#queue;
        this.#queue = [];
        return { kind: 'events', rows };
      }
      if (this.#caughtUpTo < this.#horizon) {
        const rows = await this.#readTable();
        if (rows === 'expired') return { kind: 'end', reason: 'expired' };
        if (rows.length > 0) return { kind: 'events', rows };
        continue;
      }
      const woken = await new Promise<boolean>((resolve) => {
        const done = (value: boolean) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', aborted);
          this.#wake = undefined;
          resolve(value);
        };
        const aborted = () => done(true);
        const timer = setTimeout(() => done(false), idleMs);
        signal.addEventListener('abort', aborted);
        this.#wake = () => done(true);
      });
      if (!woken) return { kind: 'idle' };
      if (signal.aborted) return { kind: 'end', reason: 'shutdown' };
    }
  }

  /** One page from the table after where the stream stands; `expired` when retention took some of it. */
  async #readTable(): Promise<StreamedEventRow[] | 'expired'> {
    this.#reading = true;
    try {
      const after = this.#caughtUpTo;
      const through = this.#horizon;
      const rows = await listEventsAfter(this.db, { after, through, limit: CATCH_UP_PAGE }, this.filter);
      // Read after the rows: a sweep that deleted any of them had moved the floor by then.
      if ((await findPrunedThrough(this.db)) > after) return 'expired';
      this.#caughtUpTo = rows.length < CATCH_UP_PAGE ? through : rows.at(-1)!.seq;
      return rows;
    } finally {
      this.#reading = false;
    }
  }
}
