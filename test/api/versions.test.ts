import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookActivities } from '../../activities/webhooks.js';
import { buildApis } from '../../api/index.js';
import { openApiDocuments } from '../../api/reference/openapi.js';
import { listEventsOfResource } from '../../db/repositories/events/outbox.js';
import {
  findDeliveryToAttempt,
  insertDeliveriesOf,
  listDeliveriesToHandOver,
} from '../../db/repositories/events/webhook-deliveries.js';
import { correctGuest } from '../../db/repositories/hypervisors/guest-inventory.js';
import { CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import { eventually } from '../support/eventually.js';
import { seed } from '../support/seed.js';
import { type Party, type Stack, startStack } from '../support/stack.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

/**
 * docs/api.md "Versions": a key pinned to the version it was issued in, `Cloudsvc-Version` over
 * it, the version named on every answer, deprecations announced, and the 2026-12-06 change
 * (`guest_drift` one object) undone for a client pinned before it, in answers and webhooks alike.
 */
const OLD = '2026-11-22';
let t: Stack;
/** The client, with a second key pinned to the old version (as a key issued before the change is). */
let pinnedOld: Party;
let oldKeyId: string;
let instanceId: string;

const USERS = '/api/application/cloudsvc/users';

/** An event as the event list shows it. */
interface EventBody {
  type: string;
  api_version: string;
  data: { object: { attributes: Record<string, unknown> } };
}

/** A key of the client's, issued through the Application API, and its id. */
async function issueKey(body: Record<string, unknown> = {}) {
  const issued = await t.admin.call('POST', `${USERS}/${t.client.id}/keys`, { type: 'client', ...body });
  expect(issued.status).toBe(201);
  return { id: issued.body.attributes.uuid as string, key: issued.body.attributes.token as string, issued };
}

const keysOfClient = async () =>
  (await t.admin.call('GET', `${USERS}/${t.client.id}/keys`)).body.data as {
    attributes: { uuid: string; api_version: string };
  }[];

beforeAll(async () => {
  // Listening: the answers pass through the Node server, where the version header is set on Node's response.
  t = await startStack({ listen: true, config: { WEBHOOK_CUSTOMER_ALLOWED_NETWORKS: '127.0.0.0/8' } });
  const old = await issueKey({ api_version: OLD });
  oldKeyId = old.id;
  pinnedOld = {
    id: t.client.id,
    key: old.key,
    call: (method, path, body, headers) => t.call(old.key, method, path, body, headers),
  };
  // An instance whose guest stopped by itself: the field the 2026-12-06 change reshaped is set.
  const hypervisor = await seed.hypervisor(t.db, t.locationId);
  const instance = await seed.instance(t.db, {
    userId: t.client.id,
    locationId: t.locationId,
    hypervisorId: hypervisor.id,
  });
  instanceId = instance.id;
  const corrected = await correctGuest(t.db, {
    instanceId,
    hypervisorId: hypervisor.id,
    expected: { status: 'running', drift: null },
    correction: { status: 'stopped', drift: 'stopped', event: 'instance.guest_stopped' },
    stillForMs: null,
  });
  expect(corrected).toBe(true);
});
afterAll(() => t.close());

const show = (party: Party, headers?: Record<string, string>) =>
  party.call('GET', `/api/client/cloud/${instanceId}`, undefined, headers);

/** The drift as the current version shows it, and as 2026-11-22 did. */
const currentShape = (attributes: Record<string, unknown>) => {
  expect(attributes.guest_drift).toEqual({ state: 'stopped', since: expect.stringMatching(/Z$/) });
  expect(attributes).not.toHaveProperty('guest_drift_since');
};
const oldShape = (attributes: Record<string, unknown>) => {
  expect(attributes.guest_drift).toBe('stopped');
  expect(attributes.guest_drift_since).toMatch(/Z$/);
  // In the place it had: right after guest_drift.
  const keys = Object.keys(attributes);
  expect(keys.indexOf('guest_drift_since')).toBe(keys.indexOf('guest_drift') + 1);
};

describe('a key’s pinned version', () => {
  it('is the current version for a key issued without one, and is shown in the key listing', async () => {
    const fresh = await issueKey();
    expect(fresh.issued.body.attributes.api_version).toBe(CURRENT_API_VERSION);
    const listed = (await keysOfClient()).find((k) => k.attributes.uuid === fresh.id);
    expect(listed?.attributes.api_version).toBe(CURRENT_API_VERSION);
    expect((await keysOfClient()).find((k) => k.attributes.uuid === oldKeyId)?.attributes.api_version).toBe(
      OLD,
    );

    const answer = await t.call(fresh.key, 'GET', `/api/client/cloud/${instanceId}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cloudsvc-version')).toBe(CURRENT_API_VERSION);
    expect(answer.headers.get('deprecation')).toBeNull();
    currentShape(answer.body.attributes);
  });

  it('holds a key pinned to 2026-11-22 to the shape it was built against, the same answer each time', async () => {
    for (let round = 0; round < 2; round++) {
      const answer = await show(pinnedOld);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cloudsvc-version')).toBe(OLD);
      oldShape(answer.body.attributes);
      // Everything else as the current version renders it.
      const current = await show(t.client);
      const { guest_drift: _a, guest_drift_since: _b, ...rest } = answer.body.attributes;
      const { guest_drift: _c, ...currentRest } = current.body.attributes;
      expect(rest).toEqual(currentRest);
    }
    // In lists and in the diagnostics too: every envelope the change touched, wherever it is.
    const list = await pinnedOld.call('GET', '/api/client/cloud?per_page=100');
    const listed = list.body.data.find(
      (i: { attributes: { uuid: string } }) => i.attributes.uuid === instanceId,
    );
    oldShape(listed.attributes);
    const diagnostics = await pinnedOld.call('GET', `/api/client/cloud/${instanceId}/diagnostics`);
    expect(diagnostics.status).toBe(200);
    oldShape(diagnostics.body.attributes);
    currentShape((await t.client.call('GET', `/api/client/cloud/${instanceId}/diagnostics`)).body.attributes);
  });

  it('renders the event list in the key’s version: every event says so, and its instance has the old drift', async () => {
    const eventsOf = async (party: Party, headers?: Record<string, string>) => {
      const answer = await party.call(
        'GET',
        `/api/client/cloud/events?resource_id=${instanceId}`,
        undefined,
        headers,
      );
      expect(answer.status).toBe(200);
      return { answer, events: answer.body.data.map((e: { event: EventBody }) => e.event) as EventBody[] };
    };
    // The list shows an event once the horizon has passed it, moments after its commit.
    await eventually(
      async () => (await eventsOf(t.client)).events.at(-1)?.data.object.attributes.guest_drift !== null,
      10_000,
      'the drifted instance’s event listed',
    );
    const old = await eventsOf(pinnedOld);
    expect(old.answer.headers.get('cloudsvc-version')).toBe(OLD);
    expect(old.answer.headers.get('deprecation')).toBe('@1796515200');
    expect(old.events.length).toBeGreaterThanOrEqual(2);
    expect(old.events.every((e) => e.api_version === OLD)).toBe(true);
    expect(old.events[0]!.data.object.attributes).toMatchObject({
      guest_drift: null,
      guest_drift_since: null,
    });
    oldShape(old.events.at(-1)!.data.object.attributes);
    // The current key, and the old one asking for the current version for one request: the current shape.
    for (const current of [
      await eventsOf(t.client),
      await eventsOf(pinnedOld, { 'Cloudsvc-Version': CURRENT_API_VERSION }),
    ]) {
      expect(current.answer.headers.get('cloudsvc-version')).toBe(CURRENT_API_VERSION);
      expect(current.events.map((e) => e.type)).toEqual(old.events.map((e) => e.type));
      expect(current.events.every((e) => e.api_version === CURRENT_API_VERSION)).toBe(true);
      currentShape(current.events.at(-1)!.data.object.attributes);
    }
  });

  it('announces the old version’s deprecation: Deprecation, Sunset and a Link to the changelog', async () => {
    const answer = await show(pinnedOld);
    expect(answer.headers.get('deprecation')).toBe('@1796515200');
    expect(answer.headers.get('sunset')).toBe('Mon, 06 Dec 2027 00:00:00 GMT');
    expect(answer.headers.get('link')).toBe('</docs/api-changelog>; rel="deprecation"; type="text/html"');
    const changelog = await t.app.request('/docs/api-changelog');
    expect(changelog.status).toBe(200);
    const page = await changelog.text();
    for (const version of [OLD, CURRENT_API_VERSION]) expect(page).toContain(`<h2 id="${version}">`);
    expect(page).toContain('served until 2027-12-06');
  });
});

describe('Cloudsvc-Version', () => {
  it('overrides the pin either way, for one request', async () => {
    const older = await show(t.client, { 'Cloudsvc-Version': OLD });
    expect(older.headers.get('cloudsvc-version')).toBe(OLD);
    expect(older.headers.get('deprecation')).toBe('@1796515200');
    oldShape(older.body.attributes);
    const newer = await show(pinnedOld, { 'Cloudsvc-Version': CURRENT_API_VERSION });
    expect(newer.headers.get('cloudsvc-version')).toBe(CURRENT_API_VERSION);
    expect(newer.headers.get('deprecation')).toBeNull();
    currentShape(newer.body.attributes);
    // The pin is what it was.
    oldShape((await show(pinnedOld)).body.attributes);
  });

  it('refuses a malformed or unknown version with 400 in the envelope, and changes nothing', async () => {
    const before = (await t.client.call('GET', '/api/client/cloud/webhooks')).body.meta.pagination.total;
    for (const version of ['2026-01-01', 'latest', '2026-12-6', '']) {
      const refused = await t.client.call(
        'POST',
        '/api/client/cloud/webhooks',
        { url: 'https://hooks.example.com/v', event_types: ['instance.running'] },
        { 'Cloudsvc-Version': version },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({
        code: 'SVC-VERSION-400',
        status: 400,
        source: { field: 'Cloudsvc-Version' },
      });
      expect(refused.body.errors[0].detail).toContain(CURRENT_API_VERSION);
      expect(refused.body.support_id).toMatch(/^sup_/);
      expect(refused.headers.get('cloudsvc-version')).toBe(CURRENT_API_VERSION);
    }
    expect((await t.client.call('GET', '/api/client/cloud/webhooks')).body.meta.pagination.total).toBe(
      before,
    );
  });

  it('names the version on every answer of the versioned APIs: refusals too, and not the Agent API', async () => {
    expect((await t.call(null, 'GET', '/api/client/cloud')).headers.get('cloudsvc-version')).toBe(
      CURRENT_API_VERSION,
    );
    const missing = await pinnedOld.call('GET', '/api/client/cloud/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cloudsvc-version')).toBe(OLD);
    const admin = await t.admin.call('GET', '/admin/cloudsvc/migrations', undefined, {
      'Cloudsvc-Version': OLD,
    });
    expect(admin.headers.get('cloudsvc-version')).toBe(OLD);
    const agent = await t.agent();
    const heartbeat = await agent.call(
      'POST',
      '/api/cloudsvc/agent/heartbeat',
      {},
      { 'Cloudsvc-Version': 'x' },
    );
    // Refused for its empty body, never for the version: the Agent API takes none (docs/decisions.md).
    expect(heartbeat.body.errors[0].code).not.toBe('SVC-VERSION-400');
    expect(heartbeat.headers.get('cloudsvc-version')).toBeNull();
  });

  it('renders two requests at once in their own versions, on one process, every time', async () => {
    for (let round = 0; round < 5; round++) {
      const [older, newer, pinned, overridden] = await Promise.all([
        show(t.client, { 'Cloudsvc-Version': OLD }),
        show(pinnedOld, { 'Cloudsvc-Version': CURRENT_API_VERSION }),
        show(pinnedOld),
        show(t.client),
      ]);
      oldShape(older.body.attributes);
      currentShape(newer.body.attributes);
      oldShape(pinned.body.attributes);
      currentShape(overridden.body.attributes);
      expect([older, newer, pinned, overridden].map((a) => a.headers.get('cloudsvc-version'))).toEqual([
        OLD,
        CURRENT_API_VERSION,
        OLD,
        CURRENT_API_VERSION,
      ]);
    }
  });
});

describe('an administrator changing a key’s pin', () => {
  it('moves the key, the same when repeated, and its next request renders in the new pin', async () => {
    const key = await issueKey();
    const path = `${USERS}/${t.client.id}/keys/${key.id}`;
    for (let round = 0; round < 2; round++) {
      const pinned = await t.admin.call('PATCH', path, { api_version: OLD });
      expect(pinned.status).toBe(200);
      expect(pinned.body.attributes).toMatchObject({ uuid: key.id, api_version: OLD });
    }
    const answer = await t.call(key.key, 'GET', `/api/client/cloud/${instanceId}`);
    expect(answer.headers.get('cloudsvc-version')).toBe(OLD);
    oldShape(answer.body.attributes);
    expect((await keysOfClient()).find((k) => k.attributes.uuid === key.id)?.attributes.api_version).toBe(
      OLD,
    );
  });

  it('takes two changes at once, leaving one of them', async () => {
    const key = await issueKey();
    const path = `${USERS}/${t.client.id}/keys/${key.id}`;
    const answers = await Promise.all([
      t.admin.call('PATCH', path, { api_version: OLD }),
      t.admin.call('PATCH', path, { api_version: CURRENT_API_VERSION }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const now = (await keysOfClient()).find((k) => k.attributes.uuid === key.id)?.attributes.api_version;
    expect([OLD, CURRENT_API_VERSION]).toContain(now);
    const answer = await t.call(key.key, 'GET', `/api/client/cloud/${instanceId}`);
    expect(answer.headers.get('cloudsvc-version')).toBe(now);
  });

  it('refuses an unknown version, another user’s key, a revoked key and a customer, changing nothing', async () => {
    const key = await issueKey();
    const path = `${USERS}/${t.client.id}/keys/${key.id}`;
    const unknown = await t.admin.call('PATCH', path, { api_version: '2020-01-01' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].source).toEqual({ field: 'api_version' });
    const foreign = await t.admin.call('PATCH', `${USERS}/${t.stranger.id}/keys/${key.id}`, {
      api_version: OLD,
    });
    expect(foreign.status).toBe(404);
    const customer = await t.client.call('PATCH', path, { api_version: OLD });
    expect(customer.status).toBe(403);
    expect((await keysOfClient()).find((k) => k.attributes.uuid === key.id)?.attributes.api_version).toBe(
      CURRENT_API_VERSION,
    );
    expect((await t.admin.call('DELETE', path)).status).toBe(204);
    expect((await t.admin.call('PATCH', path, { api_version: OLD })).status).toBe(404);
  });
});

describe('webhook payloads', () => {
  it('are rendered in the version their endpoint was pinned to at creation, named in the body and a header', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const register = async (party: Party, body: Record<string, unknown> = {}) => {
        const created = await party.call('POST', '/api/client/cloud/webhooks', {
          url: receiver.url(`/${party === pinnedOld ? 'old' : 'new'}`),
          event_types: ['instance.stopped'],
          ...body,
        });
        expect(created.status).toBe(201);
        return created.body.attributes as { uuid: string; secret: string; api_version: string };
      };
      // The request's version (the old key's pin), or the one the body names.
      const old = await register(pinnedOld);
      const current = await register(t.client);
      expect([old.api_version, current.api_version]).toEqual([OLD, CURRENT_API_VERSION]);
      const named = await register(pinnedOld, { api_version: CURRENT_API_VERSION });
      expect(named.api_version).toBe(CURRENT_API_VERSION);
      await t.client.call('DELETE', `/api/client/cloud/webhooks/${named.uuid}`);
      receiver.trust(old.secret, current.secret);

      // The instance's instance.stopped (its guest stopped by itself), delivered to both.
      const [stopped] = (await listEventsOfResource(t.db, instanceId)).filter(
        (e) => e.type === 'instance.stopped',
      );
      await insertDeliveriesOf(t.db, [stopped!.id]);
      const deliveries = (await listDeliveriesToHandOver(t.db, 1000)).filter((d) =>
        [old.uuid, current.uuid].includes(d.endpoint_id),
      );
      expect(deliveries).toHaveLength(2);
      const activities = createWebhookActivities(t.db, t.config);
      for (const delivery of deliveries)
        expect(await activities.attemptWebhookDelivery(delivery.id)).toBe('delivered');

      const byVersion = new Map(
        receiver.received.map((r) => [String(r.headers['cloudsvc-version']), JSON.parse(r.raw)]),
      );
      expect(receiver.received.map((r) => r.status)).toEqual([204, 204]);
      const olderBody = byVersion.get(OLD);
      const currentBody = byVersion.get(CURRENT_API_VERSION);
      expect(olderBody.api_version).toBe(OLD);
      expect(currentBody.api_version).toBe(CURRENT_API_VERSION);
      oldShape(olderBody.data.object.attributes);
      currentShape(currentBody.data.object.attributes);
      expect(olderBody.id).toBe(currentBody.id);

      // A later change of the endpoint's pin leaves a delivery already made as it was (a
      // redelivery sends the same bytes); the endpoint shows its new pin.
      const moved = await pinnedOld.call('PATCH', `/api/client/cloud/webhooks/${old.uuid}`, {
        api_version: CURRENT_API_VERSION,
      });
      expect(moved.body.attributes.api_version).toBe(CURRENT_API_VERSION);
      const made = deliveries.find((d) => d.endpoint_id === old.uuid)!;
      expect((await findDeliveryToAttempt(t.db, made.id))?.api_version).toBe(OLD);
    } finally {
      await receiver.close();
    }
  });
});

describe('the OpenAPI documents', () => {
  const documents = openApiDocuments(buildApis()) as Record<
    string,
    {
      info: { version: string };
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { $ref?: string }[];
            responses: Record<string, { headers: Record<string, unknown> }>;
          }
        >
      >;
      components: { parameters?: Record<string, { name: string; in: string }> };
    }
  >;

  it('carry the current version, and the version header once, referenced by every operation of a versioned API', () => {
    for (const name of ['client', 'application', 'admin']) {
      const document = documents[name]!;
      expect(document.info.version).toBe(CURRENT_API_VERSION);
      expect(document.components.parameters?.ApiVersion).toMatchObject({
        name: 'Cloudsvc-Version',
        in: 'header',
      });
      for (const operations of Object.values(document.paths))
        for (const operation of Object.values(operations)) {
          expect(operation.parameters).toContainEqual({ $ref: '#/components/parameters/ApiVersion' });
          for (const response of Object.values(operation.responses))
            expect(response.headers['Cloudsvc-Version']).toEqual({ $ref: '#/components/headers/ApiVersion' });
        }
    }
    for (const name of ['agent', 'console-internal']) {
      expect(documents[name]!.components.parameters?.ApiVersion).toBeUndefined();
      expect(JSON.stringify(documents[name]!.paths)).not.toContain('Cloudsvc-Version');
    }
  });
});
