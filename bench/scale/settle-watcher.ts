/**
 * Tells when instances settle (no running operation), for hundreds of operations in flight: one
 * query every POLL_MS for every instance waited on, on a connection of its own, rather than a poll
 * per operation that would load the database as much as the operations do.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { InstanceStatus } from '../../domain/instances/statuses.js';

const POLL_MS = 5;

interface Waiter {
  readonly deadline: number;
  readonly settle: (status: InstanceStatus | undefined) => void;
}

export class SettleWatcher {
  readonly #waiting = new Map<string, Waiter>();
  #timer: NodeJS.Timeout | undefined;
  #polling = false;

  constructor(private readonly db: Database) {}

  /** The status the instance settles in, or undefined if it has not settled within `limitMs`. */
  settled(instanceId: string, limitMs: number): Promise<InstanceStatus | undefined> {
    return new Promise((settle) => {
      this.#waiting.set(instanceId, { deadline: performance.now() + limitMs, settle });
      this.#timer ??= setInterval(() => void this.#poll(), POLL_MS);
    });
  }

  async #poll(): Promise<void> {
    if (this.#polling || this.#waiting.size === 0) return;
    this.#polling = true;
    try {
      const ids = [...this.#waiting.keys()];
      const { rows } = await sql<{ id: string; status: InstanceStatus }>`
        select id, status from instances where id = any(${ids}::uuid[]) and operation_id is null`.execute(
        this.db,
      );
      for (const row of rows) this.#end(row.id, row.status);
      const now = performance.now();
      for (const [id, waiter] of this.#waiting) if (now >= waiter.deadline) this.#end(id, undefined);
    } finally {
      this.#polling = false;
    }
  }

  #end(id: string, status: InstanceStatus | undefined): void {
    const waiter = this.#waiting.get(id);
    if (!waiter) return;
    this.#waiting.delete(id);
    waiter.settle(status);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
