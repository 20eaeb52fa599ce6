import pg from 'pg';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { GUEST_SLOTS, isGuestFile } from './guest-files.js';

/**
 * A file that boots real guests waits for one of the run's GUEST_SLOTS (guest-files.ts) before its
 * own setup. A slot is a PostgreSQL advisory lock in the run's database, so it spans the run's
 * worker processes, and a worker that dies lets go of it with its connection.
 */
/** Advisory-lock keys of the slots: a first key of our own, the slot's number the second. */
const LOCK_SPACE = 0x6775_6573;

let holder: pg.Client | undefined;

beforeAll(async () => {
  if (!isGuestFile(expect.getState().testPath ?? '')) return;
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  for (;;) {
    for (let slot = 0; slot < GUEST_SLOTS; slot += 1) {
      const { rows } = await client.query<{ held: boolean }>('select pg_try_advisory_lock($1, $2) as held', [
        LOCK_SPACE,
        slot,
      ]);
      if (rows[0]?.held) {
        holder = client;
        return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}, 3_600_000);

afterAll(async () => {
  // Closing the session ends its advisory locks.
  await holder?.end();
  holder = undefined;
});
