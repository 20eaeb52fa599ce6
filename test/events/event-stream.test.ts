import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { revokeCredential } from '../../db/repositories/accounts/keys.js';
import { listEventsOfResource, pruneRelayedEvents } from '../../db/repositories/events/outbox.js';
import { findPrunedThrough, listEventsAfter } from '../../db/repositories/events/outbox-reads.js';
import { markSuspended } from '../../db/repositories/instances/instance-suspension.js';
import { CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import { EventSubscription } from '../../services/events/subscription.js';
import { renderEvent } from '../../wire/events.js';
import { isolatedDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { seed } from '../support/seed.js';
import { openSse, type SseClient } from '../support/sse.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * docs/events.md "The stream": `GET /events` as Server-Sent Events, on a database of this file's
 * own, so the administrator's stream holds this file's events only and the retention floor moves
 * for this file alone.
 */
const CLIENT = '/api/client/cloud/events';
const PLANE = '/api/application/cloudsvc/events';
const HEARTBEAT_MS = 400;

const database = await isolatedDatabase();
let t: Stack;
beforeAll(async () => {
  t = await startStack({
    listen: true,
    config: {
      DATABASE_URL: database.url,
      EVENT_STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS),
      EVENT_STREAMS_PER_KEY: '3',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await database.drop();
});

class RolledBack extends Error {}

/** A new instance of `userId`: its `instance.created` event. */
const instanceOf = (userId: string, name?: string) =>
  seed.instance(t.db, { userId, locationId: t.locationId, ...(name ? { name } : {}) });

/** The resource each event of the stream carries. */
const resources = (stream: SseClient) =>
  stream
    .events()
    .map((e) => (e.body.data as { object: { attributes: { uuid: string } } }).object.attributes.uuid);

const carries =
  (stream: SseClient, ...ids: string[]) =>
  () =>
    ids.every((id) => resources(stream).includes(id));

/** A customer of their own, with a client key, so a test's events are its own. */
async function customer() {
  const user = await seed.user(t.db);
  const key = await createCredential(t.db, { type: 'client', userId: user.id });
  return { id: user.id, key: key.token, keyId: key.id };
}

const open = (path: string, key: string, headers: Record<string, string> = {}) =>
  openSse(t.url, path, key, headers);

/** The outbox's events of `userId` after `after`, as the webhook presenter renders them. */
async function outboxAfter(userId: string, after: number) {
  const rows = await listEventsAfter(
    t.db,
    { after, through: Number.MAX_SAFE_INTEGER, limit: 1_000 },
    { userId },
  );
  return rows.map((row) => ({
    id: String(row.seq),
    type: row.type,
    body: renderEvent(row, CURRENT_API_VERSION),
  }));
}

describe('the event stream', () => {
  it('shows a customer only their own events, and an administrator every customer’s, as webhooks render them', async () => {
    const [mine, plane] = await Promise.all([open(CLIENT, t.client.key), open(PLANE, t.admin.key)]);
    expect([mine.status, plane.status]).toEqual([200, 200]);
    expect(mine.headers.get('content-type')).toContain('text/event-stream');
    const theirs = await instanceOf(t.stranger.id);
    const own = await instanceOf(t.client.id);
    await mine.until(carries(mine, own.id));
    await plane.until(carries(plane, theirs.id, own.id));
    // The stranger's event committed first: had the customer's stream been going to show it, it would have.
    expect(resources(mine)).toEqual([own.id]);
    expect(resources(plane)).toEqual([theirs.id, own.id]);
    const [row] = await listEventsOfResource(t.db, own.id);
    expect(mine.events()).toEqual([
      { id: row!.seq, type: 'instance.created', body: renderEvent(row!, CURRENT_API_VERSION) },
    ]);
    mine.close();
    plane.close();
  });

  it('resumes after Last-Event-ID with exactly the events missed, in order, each time it reconnects', async () => {
    const who = await customer();
    const first = await open(CLIENT, who.key);
    const seen = await instanceOf(who.id);
    await first.until(carries(first, seen.id));
    const lastId = first.events().at(-1)!.id;
    first.close();
    await first.ended;

    const missed = [];
    for (let i = 0; i < 3; i++) missed.push(await instanceOf(who.id));
    await markSuspended(t.db, missed[0]!.id);
    const expected = await outboxAfter(who.id, Number(lastId));
    expect(expected.map((e) => e.type)).toEqual([
      'instance.created',
      'instance.created',
      'instance.created',
      'instance.suspended',
    ]);
    for (const attempt of [1, 2]) {
      const again = await open(CLIENT, who.key, { 'Last-Event-ID': lastId });
      await again.until(() => again.events().length >= expected.length);
      // A moment more, for anything doubled to show.
      await sleep(HEARTBEAT_MS);
      expect(again.events(), `reconnection ${attempt}`).toEqual(expected);
      again.close();
      await again.ended;
    }
  });

  it('gives two streams at once every event, once each, in the order they committed', async () => {
    const who = await customer();
    const [a, b] = await Promise.all([open(CLIENT, who.key), open(CLIENT, who.key)]);
    const made = await Promise.all([1, 2, 3, 4, 5].map(() => instanceOf(who.id)));
    const ids = made.map((i) => i.id);
    await Promise.all([a.until(carries(a, ...ids)), b.until(carries(b, ...ids))]);
    await sleep(HEARTBEAT_MS);
    const expected = await outboxAfter(who.id, 0);
    expect(a.events()).toEqual(expected);
    expect(b.events()).toEqual(expected);
    a.close();
    b.close();
  });

  it('holds an event back while one before it is in flight, and never shows one that rolled back', async () => {
    const who = await customer();
    const stream = await open(CLIENT, who.key);
    let later: { id: string } | undefined;
    let early: { id: string } | undefined;
    // The first takes the lower seq and commits last: the stream shows it first all the same.
    await t.db.transaction().execute(async (trx) => {
      early = await seed.instance(trx, { userId: who.id, locationId: t.locationId, name: 'early' });
      later = await instanceOf(who.id, 'later');
      await sleep(HEARTBEAT_MS);
      expect(stream.events()).toEqual([]);
    });
    await stream.until(carries(stream, early!.id, later!.id));
    expect(resources(stream)).toEqual([early!.id, later!.id]);

    await expect(
      t.db.transaction().execute(async (trx) => {
        await seed.instance(trx, { userId: who.id, locationId: t.locationId, name: 'rolled-back' });
        await instanceOf(who.id, 'beside-it');
        throw new RolledBack();
      }),
    ).rejects.toBeInstanceOf(RolledBack);
    const after = await instanceOf(who.id, 'after-it');
    await stream.until(carries(stream, after.id));
    const names = stream
      .events()
      .map((e) => (e.body.data as { object: { attributes: { name: string } } }).object.attributes.name);
    expect(names).toEqual(['early', 'later', 'beside-it', 'after-it']);
    stream.close();
  });

  it('sends heartbeats, and ends with `end: revoked` once its key is revoked', async () => {
    const who = await customer();
    const stream = await open(CLIENT, who.key);
    await stream.until(() => stream.comments.includes('heartbeat'));
    await revokeCredential(t.db, who.keyId);
    const revokedAt = Date.now();
    await stream.ended;
    // Within a heartbeat (and AUTH_CACHE_TTL_MS, 0 here), and a little for the machine.
    expect(Date.now() - revokedAt).toBeLessThan(HEARTBEAT_MS * 2 + 1_000);
    expect(stream.messages.at(-1)).toEqual({ id: undefined, event: 'end', data: '{"reason":"revoked"}' });
  });

  it('refuses a key one stream more than EVENT_STREAMS_PER_KEY (429), and takes it again once one closes', async () => {
    const who = await customer();
    const held = await Promise.all([1, 2, 3].map(() => open(CLIENT, who.key)));
    expect(held.map((s) => s.status)).toEqual([200, 200, 200]);
    const refused = await t.call(who.key, 'GET', CLIENT, undefined, { Accept: 'text/event-stream' });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].code).toBe('SVC-REQ-429');
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // The JSON list is not a stream and is not counted.
    expect((await t.call(who.key, 'GET', CLIENT)).status).toBe(200);
    held[0]!.close();
    await eventually(async () => {
      const another = await open(CLIENT, who.key);
      another.close();
      return another.status === 200;
    }, 10_000);
    for (const stream of held) stream.close();
  });

  it('ends the stream of a client that lets more than EVENT_STREAM_BUFFER events wait', async () => {
    const who = await customer();
    for (let i = 0; i < 3; i++) await instanceOf(who.id);
    const own = await listEventsAfter(
      t.db,
      { after: 0, through: Number.MAX_SAFE_INTEGER, limit: 10 },
      { userId: who.id },
    );
    expect(own).toHaveLength(3);
    const subscription = new EventSubscription(t.db, { userId: who.id }, 2);
    const before = own[0]!.seq - 1;
    subscription.start(before, before);
    subscription.offer({ after: before, through: own.at(-1)!.seq, rows: own });
    expect(await subscription.next(1_000, new AbortController().signal)).toEqual({
      kind: 'end',
      reason: 'too_slow',
    });
  });

  it('begins with `reset` when events after Last-Event-ID are no longer kept, and goes on from now', async () => {
    const who = await customer();
    const old = await instanceOf(who.id);
    const [oldEvent] = await listEventsOfResource(t.db, old.id);
    await sql`update outbox_events set relayed_at = now() - interval '31 days' where id = ${oldEvent!.id}`.execute(
      t.db,
    );
    await pruneRelayedEvents(t.db, 30);
    expect(await findPrunedThrough(t.db)).toBeGreaterThanOrEqual(Number(oldEvent!.seq));

    const stream = await open(CLIENT, who.key, { 'Last-Event-ID': String(Number(oldEvent!.seq) - 1) });
    await stream.until((m) => m.length > 0);
    expect(stream.messages[0]!.event).toBe('reset');
    const reset = JSON.parse(stream.messages[0]!.data);
    expect(reset.reason).toBe('expired');
    expect(stream.messages[0]!.id).toBe(reset.resume_after);
    const next = await instanceOf(who.id);
    await stream.until(carries(stream, next.id));
    expect(resources(stream)).toEqual([next.id]);
    stream.close();

    const listed = await t.call(who.key, 'GET', `${CLIENT}?after=${Number(oldEvent!.seq) - 1}`);
    expect(listed.status).toBe(410);
    expect(listed.body.errors[0].code).toBe('SVC-EVENT-410');
  });

  it.each([
    ['a Last-Event-ID that is no seq', CLIENT, { 'Last-Event-ID': 'abc' }, 'last-event-id'],
    ['an unknown event type', `${CLIENT}?type=instance.running,instance.exploded`, {}, 'type'],
    ['a negative after', `${CLIENT}?after=-1`, {}, 'after'],
    ['a resource id that is no uuid', `${CLIENT}?resource_id=web-1`, {}, 'resource_id'],
  ])('refuses %s with 400 naming the field, stream or list', async (_, path, headers, field) => {
    for (const accept of ['text/event-stream', 'application/json']) {
      const answer = await t.call(t.client, 'GET', path, undefined, { Accept: accept, ...headers });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400', source: { field } });
    }
  });

  it('answers no key 401 and the other API’s key 403', async () => {
    const none = await t.call(null, 'GET', CLIENT, undefined, { Accept: 'text/event-stream' });
    const wrong = await t.call(t.admin, 'GET', CLIENT, undefined, { Accept: 'text/event-stream' });
    const wrongPlane = await t.call(t.client, 'GET', PLANE, undefined, { Accept: 'text/event-stream' });
    expect([none.status, wrong.status, wrongPlane.status]).toEqual([401, 403, 403]);
  });
});

describe('the event list', () => {
  const list = (key: string, query = '') => t.call(key, 'GET', `${CLIENT}${query}`);

  it('pages through a customer’s events in order with after, the same page each time it is asked', async () => {
    const who = await customer();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await instanceOf(who.id));
    await markSuspended(t.db, made[2]!.id);
    const expected = await outboxAfter(who.id, 0);
    expect(expected).toHaveLength(6);

    const walked: { seq: string; event: Record<string, unknown> }[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page++) {
      const query = `?limit=2${after ? `&after=${after}` : ''}`;
      const [once, twice] = await Promise.all([list(who.key, query), list(who.key, query)]);
      expect([once.status, twice.status]).toEqual([200, 200]);
      expect(twice.body).toEqual(once.body);
      walked.push(...once.body.data);
      after = once.body.meta.next_after;
      if (!once.body.meta.has_more) break;
    }
    expect(
      walked.map((e) => ({ id: e.seq, type: (e.event as { type: string }).type, body: e.event })),
    ).toEqual(expected);
    expect(walked.every((e) => (e as { object?: string }).object === 'event')).toBe(true);
    // Read to the end: nothing more, and the cursor stays where it is until something comes.
    const end = await list(who.key, `?after=${after}`);
    expect(end.body).toMatchObject({ data: [], meta: { has_more: false } });
    expect(Number(end.body.meta.next_after)).toBeGreaterThanOrEqual(Number(after));
    const next = await instanceOf(who.id);
    await eventually(async () => {
      const fresh = await list(who.key, `?after=${end.body.meta.next_after}`);
      return fresh.body.data.length === 1 && fresh.body.data[0].event.data.object.attributes.uuid === next.id;
    }, 10_000);
  });

  it('filters by type, resource and time, and shows a customer none of another’s', async () => {
    const who = await customer();
    const [one, two] = [await instanceOf(who.id), await instanceOf(who.id)];
    await markSuspended(t.db, two.id);
    const types = (reply: { body: { data: { event: { type: string } }[] } }) =>
      reply.body.data.map((e) => e.event.type);
    // The list shows an event once the horizon has passed it, moments after its commit.
    await eventually(async () => (await list(who.key)).body.data.length === 3, 10_000);

    expect(types(await list(who.key, '?type=instance.suspended,instance.unsuspended'))).toEqual([
      'instance.suspended',
    ]);
    const ofTwo = await list(who.key, `?resource_id=${two.id}`);
    expect(types(ofTwo)).toEqual(['instance.created', 'instance.suspended']);
    expect(types(await list(who.key, `?resource_id=${one.id}&type=instance.suspended`))).toEqual([]);
    expect(types(await list(who.key, '?since=2999-01-01T00:00:00Z'))).toEqual([]);
    expect(types(await list(who.key, '?since=2000-01-01T00:00:00Z'))).toHaveLength(3);

    // Another customer's resource filters to nothing, as if it had no events; the plane sees them.
    expect((await list(t.stranger.key, `?resource_id=${two.id}`)).body.data).toEqual([]);
    const plane = await t.call(t.admin, 'GET', `${PLANE}?resource_id=${two.id}`);
    expect(types(plane)).toEqual(['instance.created', 'instance.suspended']);
  });

  it('refuses an after past every event sent (400 naming after)', async () => {
    const answer = await list(t.client.key, '?after=999999999999');
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400', source: { field: 'after' } });
  });
});
