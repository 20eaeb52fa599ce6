import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listEventsOfResource } from '../../db/repositories/events/outbox.js';
import { markSuspended } from '../../db/repositories/instances/instance-suspension.js';
import { relayEvents } from '../../services/webhooks/relay.js';
import { eventually } from '../support/eventually.js';
import { type HostileReceivers, startHostileReceivers } from '../support/hostile-receivers.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * docs/events.md "Delivery": receivers that answer with a redirect, too slowly, or over TLS that
 * fails. Each attempt ends as documented, is in the delivery log (read through the API) with its
 * status or why none came, and is retried; the same delivery goes once the endpoint answers.
 */
const TIMEOUT_MS = 1000;
const ENDPOINTS = '/api/client/cloud/webhooks';

let t: Stack;
let receiver: WebhookReceiver;
let hostile: HostileReceivers;
let relayLoop: Promise<void>;
let stopped = false;

beforeAll(async () => {
  t = await startStack({
    worker: true,
    config: {
      // Only 127.0.0.1: a redirect to 127.0.0.2 leads outside what the customer may reach.
      WEBHOOK_CUSTOMER_ALLOWED_NETWORKS: '127.0.0.1/32',
      WEBHOOK_RETRY_INITIAL_MS: '300',
      WEBHOOK_RETRY_MAX_INTERVAL_MS: '600',
      WEBHOOK_RETRY_WINDOW_MS: '60000',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    },
  });
  [receiver, hostile] = await Promise.all([startWebhookReceiver(), startHostileReceivers()]);
  // The worker's sweep, as worker/sweepers.ts runs it (the test worker runs none of them).
  relayLoop = (async () => {
    while (!stopped) {
      await relayEvents(t.deps).catch(() => undefined);
      await new Promise((r) => setTimeout(r, t.config.WEBHOOK_RELAY_INTERVAL_MS));
    }
  })();
});
afterAll(async () => {
  stopped = true;
  await relayLoop;
  await Promise.all([receiver?.close(), hostile?.close()]);
  await t?.close();
});
const registered: string[] = [];
afterEach(async () => {
  for (const path of registered.splice(0)) await t.client.call('DELETE', path);
});

interface Attempt {
  readonly attempt: number;
  readonly attempted_at: string;
  readonly status_code: number | null;
  readonly latency_ms: number;
  readonly response_excerpt: string;
  readonly error: string | null;
  readonly delivery_state: string;
}

/** An endpoint of the client's at `url`, and an event of theirs on its way to it. */
async function eventFor(url: string) {
  const created = await t.client.call('POST', ENDPOINTS, { url, event_types: ['instance.suspended'] });
  expect(created.status).toBe(201);
  const path = `${ENDPOINTS}/${created.body.attributes.uuid}`;
  registered.push(path);
  const instance = await seed.instance(t.db, { userId: t.client.id, locationId: t.locationId });
  await markSuspended(t.db, instance.id);
  const [event] = (await listEventsOfResource(t.db, instance.id)).filter(
    (e) => e.type === 'instance.suspended',
  );
  return { path, secret: created.body.attributes.secret as string, eventId: event!.id };
}

/** The event's attempts in the endpoint's delivery log, oldest first, once there are `count`. */
function attemptsOf(endpoint: { path: string; eventId: string }, count: number): Promise<Attempt[]> {
  return eventually(
    async () => {
      const log = await t.client.call('GET', `${endpoint.path}/deliveries?per_page=100`);
      const mine = (log.body.data as { attributes: Attempt & { event: { id: string } } }[])
        .map((a) => a.attributes)
        .filter((a) => a.event.id === endpoint.eventId)
        .reverse();
      return mine.length >= count && mine;
    },
    30_000,
    `${count} attempts in the log`,
  );
}

/** The endpoint moved to a receiver that answers: the same delivery goes, with its webhook-id. */
async function expectDeliveredOnceFixed(endpoint: { path: string; secret: string; eventId: string }) {
  receiver.trust(endpoint.secret);
  expect((await t.client.call('PATCH', endpoint.path, { url: receiver.url() })).status).toBe(200);
  await eventually(() => receiver.accepted.has(endpoint.eventId), 20_000, 'the delivery, once fixed');
  // The receiver has the request before the relay has its answer and logs the attempt.
  const last = await eventually(
    async () => {
      const newest = (await attemptsOf(endpoint, 1)).at(-1)!;
      return newest.delivery_state === 'delivered' && newest;
    },
    20_000,
    'the delivered attempt in the log',
  );
  expect(last).toMatchObject({ status_code: 204, error: null, delivery_state: 'delivered' });
}

/** Each attempt after the first began after the one before it ended: retried, not run at once. */
function expectRetriedInTurn(attempts: Attempt[]) {
  expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
  for (let i = 1; i < attempts.length; i++)
    expect(Date.parse(attempts[i]!.attempted_at)).toBeGreaterThanOrEqual(
      Date.parse(attempts[i - 1]!.attempted_at) + attempts[i - 1]!.latency_ms,
    );
}

describe('a receiver that redirects', () => {
  it('is not followed, to a loopback address outside the allowed networks or to an allowed receiver: each attempt fails with its 3xx, logged, retried', async () => {
    const toLoopback = await eventFor(
      hostile.url(`/redirect?status=302&to=${encodeURIComponent(hostile.landingUrl)}`),
    );
    const toAllowed = await eventFor(
      hostile.url(`/redirect?status=307&to=${encodeURIComponent(receiver.url('/followed'))}`),
    );
    for (const [endpoint, status] of [
      [toLoopback, 302],
      [toAllowed, 307],
    ] as const) {
      const attempts = await attemptsOf(endpoint, 2);
      for (const attempt of attempts)
        expect(attempt).toMatchObject({
          status_code: status,
          response_excerpt: 'moved',
          error: null,
          delivery_state: 'pending',
        });
      expectRetriedInTurn(attempts);
    }
    // Neither target was asked anything: every request went to the endpoint itself.
    expect(hostile.landed).toEqual([]);
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === toAllowed.eventId)).toEqual([]);
    for (const { eventId } of [toLoopback, toAllowed]) {
      const asked = hostile.requests.filter((r) => r.webhookId === eventId).map((r) => r.path);
      expect(asked.length).toBeGreaterThanOrEqual(2);
      expect(new Set(asked)).toEqual(new Set(['/redirect']));
    }
    await expectDeliveredOnceFixed(toAllowed);
  });
});

describe('a slow receiver', () => {
  it.each([
    ['whose headers never come', '/hang', `No answer within ${TIMEOUT_MS} ms.`],
    [
      'that sends 200 and then its body a byte at a time',
      '/dribble',
      `The answer (200) did not end within ${TIMEOUT_MS} ms.`,
    ],
  ])(
    '%s: each attempt ends at WEBHOOK_TIMEOUT_MS, logged without a status, and is retried',
    async (_, path, error) => {
      const endpoint = await eventFor(hostile.url(path));
      const attempts = await attemptsOf(endpoint, 2);
      for (const attempt of attempts) {
        expect(attempt).toMatchObject({ status_code: null, error, delivery_state: 'pending' });
        // Ended by the timeout, not by the receiver, and not long after it.
        expect(attempt.latency_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
        expect(attempt.latency_ms).toBeLessThan(TIMEOUT_MS + 1500);
      }
      expectRetriedInTurn(attempts);
      expect(hostile.requests.filter((r) => r.webhookId === endpoint.eventId).length).toBeGreaterThanOrEqual(
        2,
      );
      await expectDeliveredOnceFixed(endpoint);
    },
  );
});

describe('TLS that fails', () => {
  it('a self-signed certificate: the handshake is refused and logged with why, the body never sent, retried', async () => {
    const endpoint = await eventFor(hostile.selfSignedUrl);
    const attempts = await attemptsOf(endpoint, 2);
    for (const attempt of attempts)
      expect(attempt).toMatchObject({
        status_code: null,
        error: 'The TLS handshake failed (DEPTH_ZERO_SELF_SIGNED_CERT).',
        delivery_state: 'pending',
      });
    expectRetriedInTurn(attempts);
    expect(hostile.requests.filter((r) => r.path === '/self-signed')).toEqual([]);
    await expectDeliveredOnceFixed(endpoint);
  });

  it('a server that closes the connection on the client’s hello: logged as a failed handshake, retried', async () => {
    const hellos = hostile.hellos();
    const endpoint = await eventFor(hostile.cutOffUrl);
    const attempts = await attemptsOf(endpoint, 2);
    for (const attempt of attempts)
      expect(attempt).toMatchObject({
        status_code: null,
        error: expect.stringMatching(/^The TLS handshake failed \((ECONNRESET|EPIPE)\)\.$/),
        delivery_state: 'pending',
      });
    expectRetriedInTurn(attempts);
    expect(hostile.hellos() - hellos).toBeGreaterThanOrEqual(2);
    await expectDeliveredOnceFixed(endpoint);
  });
});
