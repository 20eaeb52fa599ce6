import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventsOfResource } from '../../db/repositories/events/outbox.js';
import { clearSuspension, markSuspended } from '../../db/repositories/instances/instance-suspension.js';
import { relayEvents } from '../../services/webhooks/relay.js';
import { eventually } from '../support/eventually.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * docs/events.md "Delivery": the relay hands several streams over at once, and each stream's
 * deliveries one after another in the order of their events, so that every stream's run receives
 * them, and its receiver takes them, in the order they committed.
 */
let t: Stack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await startStack({ worker: true, config: { WEBHOOK_CUSTOMER_ALLOWED_NETWORKS: '127.0.0.1/32' } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

describe('the relay', () => {
  it('hands twelve streams over in one pass, each stream’s six events in the order they committed', async () => {
    const created = await t.client.call('POST', '/api/client/cloud/webhooks', {
      url: receiver.url(),
      event_types: ['instance.suspended', 'instance.unsuspended'],
    });
    expect(created.status).toBe(201);
    receiver.trust(created.body.attributes.secret);
    const instances = await Promise.all(
      Array.from({ length: 12 }, () =>
        seed.instance(t.db, { userId: t.client.id, locationId: t.locationId }),
      ),
    );
    for (let round = 0; round < 3; round++)
      for (const instance of instances) {
        await markSuspended(t.db, instance.id);
        await clearSuspension(t.db, instance.id);
      }
    const pass = await relayEvents(t.deps);
    expect(pass.handedOver).toBeGreaterThanOrEqual(72);
    const taken = (id: string) =>
      [...receiver.accepted.values()].filter(
        (p) =>
          (p as { data: { object: { attributes: { uuid: string } } } }).data.object.attributes.uuid === id,
      ) as { id: string }[];
    await eventually(() => instances.every((i) => taken(i.id).length === 6), 30_000, 'every event taken');
    for (const instance of instances) {
      const recorded = (await listEventsOfResource(t.db, instance.id))
        .filter((e) => e.type.includes('suspended'))
        .map((e) => e.id);
      expect(taken(instance.id).map((p) => p.id)).toEqual(recorded);
    }
  });
});
