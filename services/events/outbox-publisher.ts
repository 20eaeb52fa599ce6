import type { Database } from '../../db/database.js';
import {
  findLastAssignedSeq,
  listEventsAfter,
  listTransactionsInFlight,
} from '../../db/repositories/events/outbox-reads.js';
import { Horizon } from '../../domain/events/horizon.js';
import type { FeedSubscribers } from './feed-subscribers.js';

/** Events read per query when the horizon moves. */
const PUBLISH_BATCH = 500;

/**
 * Moves the horizon (domain/events/horizon.ts) in two short statements and offers the events it
 * passed to every subscriber, read once for all of them.
 */
export class OutboxPublisher {
  readonly #horizon = new Horizon(0);
  #published: number | undefined;
  #firstSeen: number | undefined;

  constructor(
    private readonly db: Database,
    private readonly subscribers: FeedSubscribers,
  ) {}

  /** Every event up to it has been offered to the subscribers there were; undefined until known. */
  get published(): number | undefined {
    return this.#published;
  }

  /** A candidate waits for transactions in flight to end: worth looking again soon. */
  get waiting(): boolean {
    return this.#horizon.waiting;
  }

  async observe(): Promise<void> {
    // In this order, in two statements: the rule of domain/events/horizon.ts.
    const lastSeq = await findLastAssignedSeq(this.db);
    const inFlight = await listTransactionsInFlight(this.db);
    this.#firstSeen ??= lastSeq;
    const settled = this.#horizon.observe(lastSeq, inFlight);
    if (this.#published === undefined) {
      // Streams start at the first horizon known; nothing before it is offered.
      if (settled >= this.#firstSeen) this.#published = settled;
      return;
    }
    // Moved one batch at a time: a read that fails leaves the rest to the next look.
    while (this.#published < settled) {
      const after = this.#published;
      if (this.subscribers.size === 0) {
        this.#published = settled;
        return;
      }
      const rows = await listEventsAfter(
        this.db,
        { after, through: settled, limit: PUBLISH_BATCH },
        { userId: null },
      );
      const through = rows.length < PUBLISH_BATCH ? settled : rows.at(-1)!.seq;
      this.#published = through;
      this.subscribers.offer({ after, through, rows });
    }
  }
}
