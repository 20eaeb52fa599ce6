import { Client, Connection } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../activities/webhook-post.js';
import { listEventsOfResource } from '../../db/repositories/events/outbox.js';
import { findDelivery } from '../../db/repositories/events/webhook-deliveries.js';
import { clearSuspension, markSuspended } from '../../db/repositories/instances/instance-suspension.js';
import { relayEvents } from '../../services/webhooks/relay.js';
import { EVENT_SCHEMAS } from '../../wire/events.js';
import { eventually } from '../support/eventually.js';
import { seed } from '../support/seed.js';
import { type Party, type Stack, startStack } from '../support/stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * docs/events.md "Delivery": events reach endpoints signed by the Standard Webhooks specification,
 * in order per instance, at least once with one webhook-id, through a receiver that goes down.
 */
let t: Stack;
let receiver: WebhookReceiver;
let relaying = true;
let relayLoop: Promise<void>;
let stopped = false;

beforeAll(async () => {
  t = await startStack({
    agents: true,
    config: {
      WEBHOOK_CUSTOMER_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_RETRY_INITIAL_MS: '200',
      WEBHOOK_RETRY_MAX_INTERVAL_MS: '800',
      WEBHOOK_RETRY_WINDOW_MS: '60000',
      WEBHOOK_TIMEOUT_MS: '3000',
    },
  });
  receiver = await startWebhookReceiver();
  // The worker's sweep, as worker/sweepers.ts runs it (the test worker runs none of them).
  relayLoop = (async () => {
    while (!stopped) {
      if (relaying) await relayEvents(t.deps).catch(() => undefined);
      await new Promise((r) => setTimeout(r, t.config.WEBHOOK_RELAY_INTERVAL_MS));
    }
  })();
});
afterAll(async () => {
  stopped = true;
  await relayLoop;
  await receiver.close();
  await t.close();
});
const registered: { party: Party; path: string }[] = [];
afterEach(async () => {
  relaying = true;
  // Each test's endpoints go with it, so none receives the next test's events.
  for (const { party, path } of registered.splice(0)) await party.call('DELETE', path);
});

async function register(party: Party, eventTypes: string[], url = receiver.url()) {
  const path = party === t.admin ? '/api/application/cloudsvc/webhooks' : '/api/client/cloud/webhooks';
  const created = await party.call('POST', path, { url, event_types: eventTypes });
  expect(created.status).toBe(201);
  registered.push({ party, path: `${path}/${created.body.attributes.uuid}` });
  return {
    id: created.body.attributes.uuid as string,
    secret: created.body.attributes.secret as string,
    path,
  };
}

/** What the receiver took for one resource, in the order it took them. */
const acceptedFor = (resourceId: string) =>
  [...receiver.accepted.values()].filter(
    (p) =>
      (p as { data: { object: { attributes: { uuid: string } } } }).data.object.attributes.uuid ===
      resourceId,
  ) as { id: string; type: string; data: { previous_attributes: Record<string, unknown> } }[];

describe('delivery', () => {
  it('sends an instance’s events in the order they happened, each verified by the standardwebhooks library', async () => {
    const endpoint = await register(t.client, ['instance.created', 'instance.running', 'instance.stopped']);
    receiver.trust(endpoint.secret);
    const { hypervisor } = await t.hypervisorWithAgent();
    const instance = await t.provisionedInstance(hypervisor);
    for (const action of ['stop', 'start', 'stop']) {
      expect((await t.power(instance.id, action)).status).toBe(202);
      await t.operationResult(instance.id);
    }
    const types = [
      'instance.created',
      'instance.running',
      'instance.stopped',
      'instance.running',
      'instance.stopped',
    ];
    const delivered = await eventually(
      () => acceptedFor(instance.id).length === types.length && acceptedFor(instance.id),
      30_000,
      'five deliveries',
    );
    expect(delivered.map((p) => p.type)).toEqual(types);
    // Each is the outbox's event, in the catalogue's shape, its id the webhook-id it came with.
    const recorded = (await listEventsOfResource(t.db, instance.id)).map((e) => e.id);
    expect(delivered.map((p) => p.id)).toEqual(recorded);
    for (const payload of delivered) EVENT_SCHEMAS[payload.type as keyof typeof EVENT_SCHEMAS].parse(payload);
    expect(delivered[2]!.data.previous_attributes).toEqual({ status: 'stopping' });
    const mine = receiver.received.filter((r) => recorded.includes(String(r.headers['webhook-id'])));
    expect(mine.every((r) => r.status === 204)).toBe(true);
    expect(mine.map((r) => r.headers['webhook-id'])).toEqual(recorded);

    // The delivery log shows each, through the API.
    const log = await t.client.call('GET', `${endpoint.path}/${endpoint.id}/deliveries?per_page=100`);
    expect(log.status).toBe(200);
    const attempts = log.body.data.filter((a: { attributes: { event: { id: string } } }) =>
      recorded.includes(a.attributes.event.id),
    );
    expect(attempts).toHaveLength(5);
    for (const { attributes } of attempts)
      expect(attributes).toMatchObject({
        attempt: 1,
        status_code: 204,
        delivery_state: 'delivered',
        error: null,
      });
    expect(JSON.stringify(log.body)).not.toContain(endpoint.secret.slice(6));
  });

  it('goes on through a receiver that is down, then failing, with the same webhook-id, in order', async () => {
    const owner = t.stranger;
    const endpoint = await register(owner, ['instance.suspended', 'instance.unsuspended']);
    receiver.trust(endpoint.secret);
    const instance = await seed.instance(t.db, { userId: owner.id, locationId: t.locationId });
    await receiver.down();
    await markSuspended(t.db, instance.id);
    await clearSuspension(t.db, instance.id);
    const [suspended, unsuspended] = (await listEventsOfResource(t.db, instance.id)).filter((e) =>
      e.type.includes('suspended'),
    );
    const failedAttempts = () =>
      t.db
        .selectFrom('webhook_attempts')
        .select(['attempt', 'error', 'status_code'])
        .where('endpoint_id', '=', endpoint.id)
        .orderBy('id')
        .execute();
    await eventually(async () => (await failedAttempts()).length >= 2, 20_000, 'two refused attempts');
    receiver.answerNext(503, 500);
    await receiver.up();
    await eventually(() => acceptedFor(instance.id).length === 2, 30_000, 'both delivered');

    expect(acceptedFor(instance.id).map((p) => p.type)).toEqual([
      'instance.suspended',
      'instance.unsuspended',
    ]);
    const bySuspension = receiver.received.filter((r) => r.headers['webhook-id'] === suspended!.id);
    // Refused twice by the receiver, then taken: the same id and body each time, signed each time anew.
    expect(bySuspension.map((r) => r.status)).toEqual([503, 500, 204]);
    expect(new Set(bySuspension.map((r) => r.raw)).size).toBe(1);
    // The next event was not sent before the first was taken.
    const firstOfNext = receiver.received.find((r) => r.headers['webhook-id'] === unsuspended!.id)!;
    expect(firstOfNext.at).toBeGreaterThanOrEqual(bySuspension.at(-1)!.at);

    const attempts = await failedAttempts();
    expect(attempts.length).toBeGreaterThanOrEqual(5);
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      status_code: null,
      error: expect.stringMatching(/connection failed/),
    });
    expect((await findDelivery(t.db, (await deliveryOf(endpoint.id, suspended!.id)).id))?.state).toBe(
      'delivered',
    );
  });

  it('gives a delivery up when its window closes without a 2xx, logs why, and sends the next', async () => {
    relaying = false;
    const shortWindow = { ...t.deps, config: { ...t.config, WEBHOOK_RETRY_WINDOW_MS: 3000 } };
    const endpoint = await register(t.client, ['instance.suspended', 'instance.unsuspended']);
    receiver.trust(endpoint.secret);
    const [failing, working] = await Promise.all(
      [1, 2].map(() => seed.instance(t.db, { userId: t.client.id, locationId: t.locationId })),
    );
    await markSuspended(t.db, failing!.id);
    await clearSuspension(t.db, failing!.id);
    const [suspended, unsuspended] = (await listEventsOfResource(t.db, failing!.id)).filter((e) =>
      e.type.includes('suspended'),
    );
    receiver.refuse(suspended!.id);
    const attemptsOf = (deliveryId: string) =>
      t.db.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', deliveryId).execute();
    const first = await deliveryOfAfterRelay(shortWindow, endpoint.id, suspended!.id);
    await eventually(async () => (await attemptsOf(first.id)).length >= 1, 10_000, 'a first attempt');
    // Meanwhile another instance's event is taken: the endpoint works, only one event fails.
    await markSuspended(t.db, working!.id);
    const given = await eventually(
      async () => {
        await relayEvents(shortWindow);
        const row = await findDelivery(t.db, first.id);
        return row?.state === 'failed' && row;
      },
      20_000,
      'the first given up',
    );
    await eventually(() => acceptedFor(failing!.id).length === 1, 20_000, 'the next delivered');
    expect(acceptedFor(failing!.id)[0]!.id).toBe(unsuspended!.id);
    expect(acceptedFor(working!.id)).toHaveLength(1);
    expect((await t.client.call('GET', `${endpoint.path}/${endpoint.id}`)).body.attributes).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });
    const log = await t.client.call('GET', `${endpoint.path}/${endpoint.id}/deliveries?per_page=100`);
    const ofFirst = log.body.data.filter(
      (a: { attributes: { delivery_uuid: string } }) => a.attributes.delivery_uuid === given.id,
    );
    expect(ofFirst.length).toBeGreaterThanOrEqual(2);
    for (const { attributes } of ofFirst)
      expect(attributes).toMatchObject({
        delivery_state: 'failed',
        status_code: 503,
        response_excerpt: 'answered 503',
      });
  });

  it('disables an endpoint that took nothing for a whole window, and tells its owner', async () => {
    relaying = false;
    const shortWindow = { ...t.deps, config: { ...t.config, WEBHOOK_RETRY_WINDOW_MS: 1500 } };
    const failing = await register(t.client, ['instance.suspended', 'instance.unsuspended']);
    const watching = await register(t.client, ['webhook_endpoint.disabled']);
    receiver.trust(failing.secret, watching.secret);
    const instance = await seed.instance(t.db, { userId: t.client.id, locationId: t.locationId });
    await markSuspended(t.db, instance.id);
    await clearSuspension(t.db, instance.id);
    const [suspended, unsuspended] = (await listEventsOfResource(t.db, instance.id)).filter((e) =>
      e.type.includes('suspended'),
    );
    receiver.refuse(suspended!.id, unsuspended!.id);
    const told = await eventually(
      async () => {
        await relayEvents(shortWindow);
        const [payload] = acceptedFor(failing.id);
        return payload;
      },
      20_000,
      'webhook_endpoint.disabled',
    );
    expect(EVENT_SCHEMAS['webhook_endpoint.disabled'].parse(told)).toMatchObject({
      type: 'webhook_endpoint.disabled',
      data: {
        object: {
          object: 'webhook_endpoint',
          attributes: { uuid: failing.id, enabled: false, disabled_reason: 'failing' },
        },
        previous_attributes: { enabled: true },
      },
    });
    expect(JSON.stringify(told)).not.toContain(failing.secret.slice(6));
    const shown = await t.client.call('GET', `${failing.path}/${failing.id}`);
    expect(shown.body.attributes).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    // The next event was not sent to it: the endpoint went first.
    expect(await findDelivery(t.db, (await deliveryOf(failing.id, unsuspended!.id)).id)).toMatchObject({
      state: 'cancelled',
    });
    const enabled = await t.client.call('PATCH', `${failing.path}/${failing.id}`, { enabled: true });
    expect(enabled.body.attributes).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('keeps an event until Temporal takes it: a relay that cannot reach Temporal loses nothing', async () => {
    relaying = false;
    const endpoint = await register(t.client, ['instance.suspended']);
    receiver.trust(endpoint.secret);
    const instance = await seed.instance(t.db, { userId: t.client.id, locationId: t.locationId });
    await markSuspended(t.db, instance.id);
    const unreachable = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
    await expect(relayEvents({ ...t.deps, temporal: unreachable })).rejects.toThrow();
    const [event] = (await listEventsOfResource(t.db, instance.id)).filter(
      (e) => e.type === 'instance.suspended',
    );
    const waiting = await deliveryOf(endpoint.id, event!.id);
    expect(waiting).toMatchObject({ state: 'pending', handed_over_at: null });
    relaying = true;
    await eventually(() => acceptedFor(instance.id).length === 1, 20_000, 'the delivery');
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === event!.id)).toHaveLength(1);
  });

  it('redelivers on request with the same webhook-id, once per request, to the endpoint’s owner only', async () => {
    const endpoint = await register(t.client, ['instance.unsuspended']);
    receiver.trust(endpoint.secret);
    const instance = await seed.instance(t.db, { userId: t.client.id, locationId: t.locationId });
    await markSuspended(t.db, instance.id);
    await clearSuspension(t.db, instance.id);
    await eventually(() => acceptedFor(instance.id).length === 1, 20_000, 'the delivery');
    const [event] = (await listEventsOfResource(t.db, instance.id)).filter(
      (e) => e.type === 'instance.unsuspended',
    );
    const delivery = await deliveryOf(endpoint.id, event!.id);
    const path = `${endpoint.path}/${endpoint.id}/deliveries/${delivery.id}/redeliver`;
    expect(
      (
        await t.stranger.call(
          'POST',
          `/api/client/cloud/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.admin.call(
          'POST',
          `/api/application/cloudsvc/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`,
        )
      ).status,
    ).toBe(404);
    const again = await t.client.call('POST', path);
    expect(again.status).toBe(202);
    expect(again.body).toEqual({
      object: 'webhook_delivery',
      attributes: { uuid: delivery.id, state: 'pending' },
    });
    const sent = () => receiver.received.filter((r) => r.headers['webhook-id'] === event!.id);
    await eventually(() => sent().length === 2, 20_000, 'the redelivery');
    expect(new Set(sent().map((r) => r.raw)).size).toBe(1);
    // Two at once, on a delivered one: each finds it delivered or pending, and it goes again.
    const both = await Promise.all([t.client.call('POST', path), t.client.call('POST', path)]);
    expect(both.map((r) => r.status)).toEqual([202, 202]);
    await eventually(
      async () => (await findDelivery(t.db, delivery.id))?.state === 'delivered' && sent().length >= 3,
      20_000,
      'the second redelivery',
    );
    const log = await t.client.call('GET', `${endpoint.path}/${endpoint.id}/deliveries`);
    const numbers = log.body.data
      .filter((a: { attributes: { delivery_uuid: string } }) => a.attributes.delivery_uuid === delivery.id)
      .map((a: { attributes: { attempt: number } }) => a.attributes.attempt);
    // Newest first, counting on from the first delivery's attempt.
    expect(numbers.length).toBeGreaterThanOrEqual(3);
    expect(numbers).toEqual(numbers.map((_: number, i: number) => numbers.length - i));
  });

  it('logs a bounded excerpt of a receiver that answers a megabyte with NUL bytes in it, and delivers', async () => {
    const endpoint = await register(t.client, ['instance.suspended']);
    receiver.trust(endpoint.secret);
    // A 200: a 204 carries no body.
    receiver.answerNext(200);
    receiver.replyWith(`ok\u0000${'x'.repeat(1024 * 1024)}`);
    try {
      const instance = await seed.instance(t.db, { userId: t.client.id, locationId: t.locationId });
      await markSuspended(t.db, instance.id);
      await eventually(() => acceptedFor(instance.id).length === 1, 20_000, 'the delivery');
      const log = await eventually(async () => {
        const answer = await t.client.call('GET', `${endpoint.path}/${endpoint.id}/deliveries`);
        return answer.body.data.length === 1 && answer.body.data[0].attributes;
      });
      expect(log).toMatchObject({ status_code: 200, delivery_state: 'delivered' });
      expect(log.response_excerpt).toMatch(/^okx+$/);
      expect(log.response_excerpt.length).toBeLessThanOrEqual(1024);
    } finally {
      receiver.replyWith();
    }
  });

  it('delivers the plane’s endpoints every customer’s events', async () => {
    const endpoint = await register(t.admin, ['instance.suspended']);
    receiver.trust(endpoint.secret);
    const instance = await seed.instance(t.db, { userId: t.stranger.id, locationId: t.locationId });
    await markSuspended(t.db, instance.id);
    await eventually(() => acceptedFor(instance.id).length === 1, 20_000, 'the delivery');
  });
});

describe('the connection', () => {
  it('goes to no address outside the allowed networks, even by a name that resolves there', async () => {
    for (const url of [receiver.url(), receiver.url().replace('127.0.0.1', 'localhost')]) {
      const before = receiver.received.length;
      const outcome = await postWebhook({
        url,
        headers: {},
        body: '{}',
        allowedNetworks: [],
        timeoutMs: 2000,
      });
      expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/address/) });
      expect(receiver.received.length).toBe(before);
    }
  });
});

/** Relays (with `deps`) until the event's delivery to the endpoint exists. */
async function deliveryOfAfterRelay(deps: typeof t.deps, endpointId: string, eventId: string) {
  return eventually(async () => {
    await relayEvents(deps);
    return t.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'state'])
      .where('endpoint_id', '=', endpointId)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
  });
}

async function deliveryOf(endpointId: string, eventId: string) {
  return eventually(
    () =>
      t.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'state', 'handed_over_at'])
        .where('endpoint_id', '=', endpointId)
        .where('event_id', '=', eventId)
        .executeTakeFirst(),
    10_000,
    'the delivery row',
  );
}
