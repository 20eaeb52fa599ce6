import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack.js';

/** docs/events.md "Endpoints": customers' and the plane's, their URLs, their secrets shown once. */
let t: Stack;

const CLIENT = '/api/client/cloud/webhooks';
const PLANE = '/api/application/cloudsvc/webhooks';
const PUBLIC_URL = 'https://hooks.example.com/cloud';

beforeAll(async () => {
  t = await startStack({ config: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_ENDPOINTS_MAX: '3' } });
});
afterAll(() => t.close());

const create = (party: Stack['client'], path: string, body: Record<string, unknown>) =>
  party.call('POST', path, { event_types: ['instance.running'], ...body });

describe('a customer’s endpoints (Client API)', () => {
  it('shows the secret once, at creation, and never again', async () => {
    const created = await create(t.client, CLIENT, { url: PUBLIC_URL, description: 'Billing' });
    expect(created.status).toBe(201);
    const { secret, ...attributes } = created.body.attributes;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(attributes).toMatchObject({
      url: PUBLIC_URL,
      description: 'Billing',
      event_types: ['instance.running'],
      enabled: true,
      previous_secret_expires_at: null,
    });
    const id = attributes.uuid;
    const later = [
      await t.client.call('GET', `${CLIENT}/${id}`),
      await t.client.call('GET', CLIENT),
      await t.client.call('PATCH', `${CLIENT}/${id}`, { enabled: false }),
    ];
    for (const answer of later) {
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain(secret.slice(6));
      expect(JSON.stringify(answer.body)).not.toContain('secret"');
    }
    expect(later[1]!.body.data.map((e: { attributes: { uuid: string } }) => e.attributes.uuid)).toContain(id);
    expect(later[2]!.body.attributes.enabled).toBe(false);
    // Sealed at rest: the row holds no trace of it in clear.
    const { secret_sealed } = await t.db
      .selectFrom('webhook_endpoints')
      .select('secret_sealed')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(secret_sealed).toMatch(/^sealed:v1:/);
    expect(secret_sealed).not.toContain(secret.slice(6));
    await t.client.call('DELETE', `${CLIENT}/${id}`);
  });

  it('rotates the secret: a new one shown once, the old one signing beside it for the overlap', async () => {
    const created = await create(t.client, CLIENT, { url: PUBLIC_URL });
    const id = created.body.attributes.uuid;
    const first = await t.client.call('POST', `${CLIENT}/${id}/secret/rotate`);
    const second = await t.client.call('POST', `${CLIENT}/${id}/secret/rotate`);
    expect([first.status, second.status]).toEqual([200, 200]);
    const secrets = [
      created.body.attributes.secret,
      first.body.attributes.secret,
      second.body.attributes.secret,
    ];
    expect(new Set(secrets).size).toBe(3);
    const overlapEnds = Date.parse(second.body.attributes.previous_secret_expires_at);
    expect(overlapEnds - Date.now()).toBeGreaterThan(t.config.WEBHOOK_SECRET_OVERLAP_MS - 60_000);
    const shown = await t.client.call('GET', `${CLIENT}/${id}`);
    for (const secret of secrets) expect(JSON.stringify(shown.body)).not.toContain(secret.slice(6));
    await t.client.call('DELETE', `${CLIENT}/${id}`);
  });

  it.each([
    ['a private address', 'https://10.1.2.3/hook'],
    ['loopback', 'https://127.0.0.1:8443/hook'],
    ['localhost', 'https://localhost/hook'],
    ['the metadata address', 'https://169.254.169.254/latest'],
    ['a unique-local IPv6 address', 'https://[fd00::1]/hook'],
    ['plain http to a public host', 'http://hooks.example.com/cloud'],
    ['a user name in the URL', 'https://user:pass@hooks.example.com/cloud'],
    ['no URL at all', 'hooks.example.com/cloud'],
  ])('refuses %s with 400 naming `url`', async (_, url) => {
    const refused = await create(t.client, CLIENT, { url });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400', source: { field: 'url' } });
    // Not at a network the provider allowed for the plane's own endpoints either.
    const created = await create(t.client, CLIENT, { url: PUBLIC_URL });
    const changed = await t.client.call('PATCH', `${CLIENT}/${created.body.attributes.uuid}`, { url });
    expect(changed.status).toBe(400);
    await t.client.call('DELETE', `${CLIENT}/${created.body.attributes.uuid}`);
  });

  it('refuses an event type the catalogue lacks, an empty list, unknown fields and a change of nothing', async () => {
    for (const body of [
      { url: PUBLIC_URL, event_types: ['instance.exploded'] },
      { url: PUBLIC_URL, event_types: [] },
      { url: PUBLIC_URL, event_types: ['instance.running'], secret: 'whsec_mine' },
    ]) {
      const refused = await t.client.call('POST', CLIENT, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const created = await t.client.call('POST', CLIENT, {
      url: PUBLIC_URL,
      event_types: ['instance.running'],
    });
    const path = `${CLIENT}/${created.body.attributes.uuid}`;
    for (const body of [{}, undefined]) {
      const refused = await t.client.call('PATCH', path, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.client.call('GET', path)).body.attributes.updated_at).toBe(
      created.body.attributes.updated_at,
    );
    await t.client.call('DELETE', path);
  });

  it('is the customer’s own: another customer and the plane see none of it', async () => {
    const created = await create(t.client, CLIENT, { url: PUBLIC_URL });
    const id = created.body.attributes.uuid;
    for (const [party, path] of [
      [t.stranger, CLIENT],
      [t.admin, PLANE],
    ] as const) {
      expect((await party.call('GET', `${path}/${id}`)).status).toBe(404);
      expect((await party.call('PATCH', `${path}/${id}`, { enabled: false })).status).toBe(404);
      expect((await party.call('POST', `${path}/${id}/secret/rotate`)).status).toBe(404);
      expect((await party.call('DELETE', `${path}/${id}`)).status).toBe(404);
      const listed = await party.call('GET', path);
      expect(JSON.stringify(listed.body)).not.toContain(id);
    }
    expect((await t.client.call('GET', `${CLIENT}/${id}`)).body.attributes.enabled).toBe(true);
    expect((await t.client.call('DELETE', `${CLIENT}/${id}`)).status).toBe(204);
    expect((await t.client.call('DELETE', `${CLIENT}/${id}`)).status).toBe(404);
  });

  it('holds WEBHOOK_ENDPOINTS_MAX when two creates race for the last place', async () => {
    const owner = t.stranger;
    const first = await create(owner, CLIENT, { url: PUBLIC_URL });
    const second = await create(owner, CLIENT, { url: PUBLIC_URL });
    const racing = await Promise.all([
      create(owner, CLIENT, { url: PUBLIC_URL }),
      create(owner, CLIENT, { url: PUBLIC_URL }),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(racing.find((r) => r.status === 409)!.body.errors[0].code).toBe('SVC-QUOTA-409');
    for (const r of [first, second, ...racing])
      if (r.status === 201) await owner.call('DELETE', `${CLIENT}/${r.body.attributes.uuid}`);
  });
});

describe('the plane’s endpoints (Application API)', () => {
  it('may be at a network the provider allows, over http there, and nowhere else private', async () => {
    const allowed = await create(t.admin, PLANE, {
      url: 'http://127.0.0.1:9/hook',
      event_types: ['operation.failed'],
    });
    expect(allowed.status).toBe(201);
    expect(allowed.body.attributes.secret).toMatch(/^whsec_/);
    // The setting is the plane's: a customer's endpoint there is refused.
    expect((await create(t.client, CLIENT, { url: 'https://127.0.0.1:9/hook' })).status).toBe(400);
    for (const url of ['http://10.1.2.3/hook', 'https://192.168.1.1/hook', 'http://hooks.example.com/x']) {
      const refused = await create(t.admin, PLANE, { url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.errors[0].source).toEqual({ field: 'url' });
    }
    const listed = await t.admin.call('GET', PLANE);
    expect(listed.body.data.map((e: { attributes: { uuid: string } }) => e.attributes.uuid)).toContain(
      allowed.body.attributes.uuid,
    );
    expect(JSON.stringify(listed.body)).not.toContain(allowed.body.attributes.secret.slice(6));
    expect((await t.admin.call('DELETE', `${PLANE}/${allowed.body.attributes.uuid}`)).status).toBe(204);
  });

  it('is shown, changed, rotated (twice, and twice at once) and its log read, never with its secret', async () => {
    const created = await create(t.admin, PLANE, { url: PUBLIC_URL, event_types: ['operation.failed'] });
    const { uuid: id, secret } = created.body.attributes;
    const shown = await t.admin.call('GET', `${PLANE}/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.attributes).toMatchObject({ uuid: id, url: PUBLIC_URL, enabled: true });
    const changed = await t.admin.call('PATCH', `${PLANE}/${id}`, { description: 'Monitor' });
    expect(changed.status).toBe(200);
    expect(changed.body.attributes.description).toBe('Monitor');
    const inTurn = [
      await t.admin.call('POST', `${PLANE}/${id}/secret/rotate`),
      await t.admin.call('POST', `${PLANE}/${id}/secret/rotate`),
    ];
    const atOnce = await Promise.all([
      t.admin.call('POST', `${PLANE}/${id}/secret/rotate`),
      t.admin.call('POST', `${PLANE}/${id}/secret/rotate`),
    ]);
    const rotated = [...inTurn, ...atOnce];
    expect(rotated.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set([secret, ...rotated.map((r) => r.body.attributes.secret)]).size).toBe(5);
    const log = await t.admin.call('GET', `${PLANE}/${id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.data).toEqual([]);
    const after = JSON.stringify((await t.admin.call('GET', `${PLANE}/${id}`)).body);
    for (const s of [secret, ...rotated.map((r) => r.body.attributes.secret)])
      expect(after).not.toContain(s.slice(6));
    expect((await t.admin.call('DELETE', `${PLANE}/${id}`)).status).toBe(204);
  });

  it('refuses a customer’s key, and the Client API an application key', async () => {
    expect((await t.client.call('GET', PLANE)).status).toBe(403);
    expect((await t.admin.call('GET', CLIENT)).status).toBe(403);
  });
});
