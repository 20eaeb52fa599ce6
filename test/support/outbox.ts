import { expect } from 'vitest';
import type { Database } from '../../db/database.js';
import { listEventsOfResource, type OutboxEventRow } from '../../db/repositories/events/outbox.js';
import { CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import { type EventType, isEventType } from '../../domain/events/catalogue.js';
import { EVENT_SCHEMAS, renderEvent } from '../../wire/events.js';

// What the event tests ask of the outbox (docs/events.md "Recorded with the change").

/** The events recorded of one resource, oldest first. */
export const eventsOf = (db: Database, resourceId: string) => listEventsOfResource(db, resourceId);

export const typesOf = async (db: Database, resourceId: string) =>
  (await eventsOf(db, resourceId)).map((e) => e.type);

/** The body the event is sent with, checked against its type's schema in the documents. */
export function rendered(event: OutboxEventRow) {
  if (!isEventType(event.type)) throw new Error(`not in the catalogue: ${event.type}`);
  const body = renderEvent(event, CURRENT_API_VERSION);
  expect(EVENT_SCHEMAS[event.type as EventType].parse(body)).toEqual(body);
  return body as {
    type: string;
    data: { object: { attributes: Record<string, unknown> }; previous_attributes: Record<string, unknown> };
  };
}

/** No secret's name or sealed value is in what the outbox recorded. */
export function expectNoSecret(event: OutboxEventRow) {
  const text = JSON.stringify(event.data);
  for (const word of ['password', 'secret', 'sealed', 'token_hash', 'whsec_'])
    expect(text).not.toContain(word);
}

export class RolledBack extends Error {}

/** Runs `change` in a transaction that then fails: whatever it wrote is rolled back. */
export async function rolledBack(db: Database, change: (trx: Database) => Promise<unknown>) {
  await expect(
    db.transaction().execute(async (trx) => {
      await change(trx);
      throw new RolledBack();
    }),
  ).rejects.toBeInstanceOf(RolledBack);
}

/**
 * Two changes of one resource at once: the first writes in a transaction and holds it open; the
 * second starts meanwhile (and waits for the row's lock: it must pick the row by what it sees
 * before the first commits); the first commits, then the second. The outbox must show what each
 * changed, in that commit order.
 */
export async function atOnce(
  db: Database,
  first: (trx: Database) => Promise<unknown>,
  second: () => Promise<unknown>,
) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => {
    wrote = resolve;
  });
  const one = db.transaction().execute(async (trx) => {
    await first(trx);
    wrote();
    await held;
  });
  await written;
  let secondDone = false;
  const two = second().finally(() => {
    secondDone = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  // The second waits for the first's lock: it cannot have finished while the first is open.
  expect(secondDone).toBe(false);
  release();
  await Promise.all([one, two]);
}
