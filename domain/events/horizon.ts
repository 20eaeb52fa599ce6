// The stream's horizon (docs/events.md "The stream"): the highest `seq` below which every event
// that will ever commit has committed. `seq` is handed out when an event is written, not when its
// transaction commits, so a reader that went past an event still in flight would skip it for good.
//
// The rule: read the last `seq` handed out, then (after, in a later statement) the transactions in
// flight. Every transaction that took a `seq` up to that value had begun by then, so it is either
// over or among those in flight. Once none of them is in flight any more, every `seq` up to the
// value is settled: committed, or rolled back and never to appear. Transactions that had not begun
// take higher values, so they cannot land below it. It needs a transaction to have its id before it
// takes a `seq`: every event is written by a trigger after the row of its change, which gave it one.

interface Candidate {
  readonly seq: number;
  readonly waitingOn: ReadonlySet<string>;
}

/** Candidates kept at most; past it the oldest are dropped, which only delays the horizon. */
const MAX_PENDING = 1_000;

export class Horizon {
  #settled: number;
  #pending: Candidate[] = [];

  constructor(start: number) {
    this.#settled = start;
  }

  /** Every event with a `seq` up to this one has committed or never will. */
  get settled(): number {
    return this.#settled;
  }

  /** Whether a candidate waits for transactions to end: the feed looks again soon. */
  get waiting(): boolean {
    return this.#pending.length > 0;
  }

  /**
   * One observation: `lastSeq`, then the transactions `inFlight` read after it. Settles every
   * candidate none of whose transactions is in flight any more, then takes this one as a candidate
   * (settled at once when nothing was in flight). Returns the horizon.
   */
  observe(lastSeq: number, inFlight: readonly string[]): number {
    const now = new Set(inFlight);
    let settledUpTo = -1;
    this.#pending.forEach((candidate, index) => {
      if (![...candidate.waitingOn].some((xid) => now.has(xid))) settledUpTo = index;
    });
    // A candidate's transactions had all begun before a later one's were read, so once a later one
    // is settled, so are those before it.
    if (settledUpTo >= 0) {
      this.#settled = Math.max(this.#settled, this.#pending[settledUpTo]!.seq);
      this.#pending = this.#pending.slice(settledUpTo + 1);
    }
    const newest = this.#pending.at(-1)?.seq ?? this.#settled;
    if (lastSeq > newest) {
      if (now.size === 0) {
        this.#settled = lastSeq;
        this.#pending = [];
      } else {
        this.#pending.push({ seq: lastSeq, waitingOn: now });
        if (this.#pending.length > MAX_PENDING) this.#pending.shift();
      }
    }
    return this.#settled;
  }
}
