import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markInstanceDeleted } from '../../db/repositories/instances/instances.js';
import type { Body, Reply } from '../support/http.js';
import { statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * External references (docs/api.md "External references"): a billing system's own id on users and
 * instances, set at create and later, found again by it, one resource's of each kind at most.
 * Orders are placed on an online hypervisor with no agent: the id is the panel's record only.
 */
let t: Stack;
let catalog: Awaited<ReturnType<typeof seed.catalog>>;
let location: { id: string; code: string };
beforeAll(async () => {
  t = await startStack({ config: { INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000' } });
  location = await seed.location(t.db);
  await seed.uniqueIpv4Pool(t.db, location.id);
  catalog = await seed.catalog(t.db);
  const hypervisor = await seed.hypervisor(t.db, location.id);
  // Online is what an agent's heartbeat makes it; none runs here.
  await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', hypervisor.id).execute();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body, headers);

/** An id no other test of the run draws, with characters a path must carry percent-encoded. */
const odd = (prefix = 'whmcs') => `${prefix}/${randomUUID().slice(0, 8)}%2F?#&+~"'<>\\[]{}|^\``;
const at = (kind: 'users' | 'instances', externalId: string) =>
  admin('GET', `/${kind}/external/${encodeURIComponent(externalId)}`);

const newUser = (overrides: Record<string, unknown> = {}) => ({
  email: `ext-${randomUUID().slice(0, 8)}@example.test`,
  name: 'Billing Customer',
  ...overrides,
});
const order = (overrides: Record<string, unknown> = {}) => ({
  user: t.client.id,
  hostname: `ext-${randomUUID().slice(0, 6)}.example.test`,
  plan: catalog.plan.code,
  image: catalog.image.code,
  location: location.code,
  ...overrides,
});

const holders = async (table: 'users' | 'instances', externalId: string) =>
  (await t.db.selectFrom(table).select('id').where('external_id', '=', externalId).execute()).map(
    (r) => r.id,
  );
const usersWithEmail = async (email: string) =>
  (await t.db.selectFrom('users').select('id').where('email', '=', email).execute()).length;
const instancesNamed = async (hostname: string) =>
  (await t.db.selectFrom('instances').select('id').where('hostname', '=', hostname).execute()).length;

function expectRefused(reply: Reply, status: number, code: string, field?: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.errors[0].code).toBe(code);
  if (field) expect(reply.body.errors.map((e: Body) => e.source?.field)).toContain(field);
}

/** What a body may not hold as an external id: each a 400 naming `external_id`. */
const MALFORMED: readonly unknown[] = [
  '',
  'x'.repeat(192),
  ' leading-space',
  'inner space',
  'tab\there',
  'line\nbreak',
  'nul\u0000',
  'del\u007f',
  'caf\u00e9',
  '\u{1F600}',
  42,
];

describe('a user’s external id', () => {
  it('is set at create, found by it, shown, changed, cleared; the old id then finds nothing', async () => {
    const externalId = odd();
    const created = await admin('POST', '/users', newUser({ external_id: externalId }));
    expect(created.status).toBe(201);
    const user = created.body.attributes;
    expect(user.external_id).toBe(externalId);
    expect((await at('users', externalId)).body).toEqual(created.body);
    expect((await admin('GET', `/users/${user.uuid}`)).body.attributes.external_id).toBe(externalId);

    const next = `blesta-${randomUUID()}`;
    const changed = await admin('PATCH', `/users/${user.uuid}`, { external_id: next });
    expect(changed.status).toBe(200);
    expect(changed.body.attributes).toEqual({ ...user, external_id: next });
    expectRefused(await at('users', externalId), 404, 'SVC-RES-404');
    expect((await at('users', next)).body.attributes.uuid).toBe(user.uuid);
    // Twice the same: the same answer, nothing else changes.
    expect((await admin('PATCH', `/users/${user.uuid}`, { external_id: next })).body).toEqual(changed.body);

    const cleared = await admin('PATCH', `/users/${user.uuid}`, { external_id: null });
    expect(cleared.body.attributes.external_id).toBeNull();
    expectRefused(await at('users', next), 404, 'SVC-RES-404');
    // A user made without one has none, as many as there are.
    expect((await admin('POST', '/users', newUser())).body.attributes.external_id).toBeNull();
  });

  it('is matched exactly: case matters, and a path segment named like a sub-route is an id', async () => {
    const base = `Case-${randomUUID().slice(0, 8)}`;
    const upper = (await admin('POST', '/users', newUser({ external_id: base }))).body.attributes;
    const lower = (await admin('POST', '/users', newUser({ external_id: base.toLowerCase() }))).body
      .attributes;
    expect((await at('users', base)).body.attributes.uuid).toBe(upper.uuid);
    expect((await at('users', base.toLowerCase())).body.attributes.uuid).toBe(lower.uuid);
    expectRefused(await at('users', base.toUpperCase()), 404, 'SVC-RES-404');
    // `/users/external/keys` is the user known as `keys`, not the keys of a user `external`.
    for (const word of ['keys', 'quotas']) {
      await t.db.updateTable('users').set({ external_id: null }).where('external_id', '=', word).execute();
      const named = (await admin('POST', '/users', newUser({ external_id: word }))).body.attributes;
      expect((await at('users', word)).body.attributes.uuid).toBe(named.uuid);
    }
  });

  it('refuses a malformed one at create and change with 400 naming it, changing nothing', async () => {
    const user = (await admin('POST', '/users', newUser({ external_id: `keep-${randomUUID()}` }))).body
      .attributes;
    for (const bad of MALFORMED) {
      const fields = newUser({ external_id: bad });
      expectRefused(await admin('POST', '/users', fields), 400, 'SVC-REQ-400', 'external_id');
      expect(await usersWithEmail(fields.email)).toBe(0);
      expectRefused(
        await admin('PATCH', `/users/${user.uuid}`, { external_id: bad }),
        400,
        'SVC-REQ-400',
        'external_id',
      );
    }
    expect((await admin('GET', `/users/${user.uuid}`)).body.attributes).toEqual(user);
    // The longest allowed, and every visible ASCII character, are taken.
    const longest = `${randomUUID()}${'~'.repeat(191 - 36)}`;
    expect((await admin('PATCH', `/users/${user.uuid}`, { external_id: longest })).status).toBe(200);
    expect((await at('users', longest)).body.attributes.uuid).toBe(user.uuid);
    const everything = `${randomUUID()}${String.fromCharCode(...Array.from({ length: 94 }, (_, i) => 33 + i))}`;
    expect((await admin('PATCH', `/users/${user.uuid}`, { external_id: everything })).status).toBe(200);
    expect((await at('users', everything)).body.attributes.uuid).toBe(user.uuid);
    // A path segment that could be no id is an unknown one.
    expectRefused(await at('users', 'x'.repeat(192)), 404, 'SVC-RES-404');
    expectRefused(await at('users', 'with space'), 404, 'SVC-RES-404');
  });

  it('is one user’s: another’s is refused at create and change with 409, nothing changed', async () => {
    const externalId = odd('taken');
    const holder = (await admin('POST', '/users', newUser({ external_id: externalId }))).body.attributes;
    const fields = newUser({ external_id: externalId });
    expectRefused(await admin('POST', '/users', fields), 409, 'EXTERNAL_ID_TAKEN');
    expect(await usersWithEmail(fields.email)).toBe(0);

    const other = (await admin('POST', '/users', newUser())).body.attributes;
    expectRefused(
      await admin('PATCH', `/users/${other.uuid}`, { external_id: externalId, name: 'Renamed' }),
      409,
      'EXTERNAL_ID_TAKEN',
    );
    expect((await admin('GET', `/users/${other.uuid}`)).body.attributes).toEqual(other);
    expect(await holders('users', externalId)).toEqual([holder.uuid]);
    // The email's own conflict keeps its code.
    expectRefused(await admin('POST', '/users', newUser({ email: holder.email })), 409, 'SVC-CONFLICT-409');
  });

  it('of two creates at once, and two changes at once, goes to one', async () => {
    const externalId = odd('race');
    const created = await Promise.all([
      admin('POST', '/users', newUser({ external_id: externalId })),
      admin('POST', '/users', newUser({ external_id: externalId })),
    ]);
    expect(statusesOf(created)).toEqual([201, 409]);
    const winner = created.find((r) => r.status === 201)!.body.attributes;
    expect(created.find((r) => r.status === 409)!.body.errors[0].code).toBe('EXTERNAL_ID_TAKEN');
    expect(await holders('users', externalId)).toEqual([winner.uuid]);

    const next = odd('race-change');
    const [a, b] = await Promise.all([
      admin('POST', '/users', newUser()),
      admin('POST', '/users', newUser()),
    ]);
    const changed = await Promise.all(
      [a, b].map((u) => admin('PATCH', `/users/${u.body.attributes.uuid}`, { external_id: next })),
    );
    expect(statusesOf(changed)).toEqual([200, 409]);
    expect(await holders('users', next)).toEqual([
      changed.find((r) => r.status === 200)!.body.attributes.uuid,
    ]);
  });

  it('is held by the database as well: a malformed one written past the API is refused', async () => {
    const user = await seed.user(t.db);
    await expect(
      t.db.updateTable('users').set({ external_id: 'inner space' }).where('id', '=', user.id).execute(),
    ).rejects.toMatchObject({ code: '23514' });
  });
});

describe('an instance’s external id', () => {
  it('is set by the order, shown to administrators only, found by it, changed and cleared', async () => {
    const externalId = odd('service');
    const created = await admin('POST', '/instances', order({ external_id: externalId }));
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.attributes.uuid;
    expect(created.body.attributes.external_id).toBe(externalId);

    const found = await at('instances', externalId);
    expect(found.status).toBe(200);
    expect(found.body).toEqual((await admin('GET', `/instances/${id}`)).body);
    expect(found.body.attributes).toMatchObject({ uuid: id, external_id: externalId, user_id: t.client.id });
    const listed = (await admin('GET', `/instances?user=${t.client.id}&per_page=100`)).body.data;
    expect(listed.find((i: Body) => i.attributes.uuid === id).attributes.external_id).toBe(externalId);
    // The customer sees their instance, not the provider's id for it.
    const own = await t.call(t.client, 'GET', `/api/client/cloud/${id}`);
    expect(own.status).toBe(200);
    expect(own.body.attributes).not.toHaveProperty('external_id');
    expect(JSON.stringify(own.body)).not.toContain(externalId.slice(0, 14));

    const next = `paymenter-${randomUUID()}`;
    const changed = await admin('PATCH', `/instances/${id}`, { external_id: next });
    expect(changed.status).toBe(200);
    expect(changed.body.attributes).toMatchObject({ uuid: id, external_id: next, status: 'provisioning' });
    // Twice the same: the same answer, the instance unchanged (its updated_at too).
    expect((await admin('PATCH', `/instances/${id}`, { external_id: next })).body).toEqual(changed.body);
    expectRefused(await at('instances', externalId), 404, 'SVC-RES-404');
    expect((await at('instances', next)).body.attributes.uuid).toBe(id);
    expect(
      (await admin('PATCH', `/instances/${id}`, { external_id: null })).body.attributes.external_id,
    ).toBe(null);
    expectRefused(await at('instances', next), 404, 'SVC-RES-404');
    // An order without one has none.
    expect((await admin('POST', '/instances', order())).body.attributes.external_id).toBeNull();
  });

  it('is in the answer to an administrator’s delete, which shows the instance as administrators see it', async () => {
    const externalId = `service-${randomUUID()}`;
    const created = await admin('POST', '/instances', order({ external_id: externalId }));
    const id = created.body.attributes.uuid;
    // Running, its provisioning over, is what a worker would make it; none runs here.
    await t.db
      .updateTable('instances')
      .set({ status: 'running', operation_id: null })
      .where('id', '=', id)
      .execute();
    const deleted = await admin('DELETE', `/instances/${id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(202);
    expect(deleted.body.attributes).toMatchObject({
      uuid: id,
      status: 'deleting',
      external_id: externalId,
      user_id: t.client.id,
    });
    // Again while it is deleting: refused, nothing changed.
    expectRefused(await admin('DELETE', `/instances/${id}`), 409, 'SVC-OP-409');
    expect((await at('instances', externalId)).body.attributes).toMatchObject({
      uuid: id,
      status: 'deleting',
    });
  });

  it('refuses a malformed one at order and change with 400 naming it, creating and changing nothing', async () => {
    const kept = `kept-${randomUUID()}`;
    const id = (await admin('POST', '/instances', order({ external_id: kept }))).body.attributes.uuid;
    for (const bad of MALFORMED) {
      const body = order({ external_id: bad });
      expectRefused(await admin('POST', '/instances', body), 400, 'SVC-REQ-400', 'external_id');
      expect(await instancesNamed(body.hostname as string)).toBe(0);
      expectRefused(
        await admin('PATCH', `/instances/${id}`, { external_id: bad }),
        400,
        'SVC-REQ-400',
        'external_id',
      );
    }
    expectRefused(await admin('PATCH', `/instances/${id}`, {}), 400, 'SVC-REQ-400', 'external_id');
    expectRefused(
      await admin('PATCH', `/instances/${id}`, { external_id: 'x', name: 'web' }),
      400,
      'SVC-REQ-400',
      'name',
    );
    expect((await at('instances', kept)).body.attributes.uuid).toBe(id);
    expectRefused(
      await admin('PATCH', `/instances/${randomUUID()}`, { external_id: 'x' }),
      404,
      'SVC-RES-404',
    );
  });

  it('is one live instance’s: another order or change naming it is refused with 409, nothing created', async () => {
    const externalId = odd('held');
    const holder = (await admin('POST', '/instances', order({ external_id: externalId }))).body.attributes;
    const body = order({ external_id: externalId });
    expectRefused(await admin('POST', '/instances', body), 409, 'EXTERNAL_ID_TAKEN');
    expect(await instancesNamed(body.hostname as string)).toBe(0);

    const other = (await admin('POST', '/instances', order())).body.attributes;
    expectRefused(
      await admin('PATCH', `/instances/${other.uuid}`, { external_id: externalId }),
      409,
      'EXTERNAL_ID_TAKEN',
    );
    expect((await admin('GET', `/instances/${other.uuid}`)).body.attributes.external_id).toBeNull();
    expect(await holders('instances', externalId)).toEqual([holder.uuid]);
    // A user may share it with an instance: the kinds are apart.
    expect((await admin('POST', '/users', newUser({ external_id: externalId }))).status).toBe(201);

    // Once the instance is deleted the id is free: a service ordered again under it is found anew.
    await markInstanceDeleted(t.db, holder.uuid);
    expectRefused(await at('instances', externalId), 404, 'SVC-RES-404');
    const again = await admin('POST', '/instances', order({ external_id: externalId }));
    expect(again.status).toBe(202);
    expect((await at('instances', externalId)).body.attributes.uuid).toBe(again.body.attributes.uuid);
  });

  it('replays an order repeated with its Idempotency-Key; without it the repeat is refused', async () => {
    const externalId = odd('retry');
    const body = order({ external_id: externalId });
    const key = { 'Idempotency-Key': `ext-${randomUUID()}` };
    const first = await admin('POST', '/instances', body, key);
    expect(first.status).toBe(202);
    const again = await admin('POST', '/instances', body, key);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectRefused(await admin('POST', '/instances', body), 409, 'EXTERNAL_ID_TAKEN');
    expectRefused(
      await admin('POST', '/instances', body, { 'Idempotency-Key': `ext-${randomUUID()}` }),
      409,
      'EXTERNAL_ID_TAKEN',
    );
    expect(await instancesNamed(body.hostname as string)).toBe(1);
  });

  it('of two orders at once, and two changes at once, goes to one; `/instances/external/firewall` is an id', async () => {
    const externalId = odd('race');
    const bodies = [order({ external_id: externalId }), order({ external_id: externalId })];
    const ordered = await Promise.all(bodies.map((b) => admin('POST', '/instances', b)));
    expect(statusesOf(ordered)).toEqual([202, 409]);
    expect(ordered.find((r) => r.status === 409)!.body.errors[0].code).toBe('EXTERNAL_ID_TAKEN');
    const winner = ordered.find((r) => r.status === 202)!.body.attributes.uuid;
    expect(await holders('instances', externalId)).toEqual([winner]);
    const counts = await Promise.all(bodies.map((b) => instancesNamed(b.hostname as string)));
    expect(counts.sort()).toEqual([0, 1]);

    const next = 'firewall';
    await t.db.updateTable('instances').set({ external_id: null }).where('external_id', '=', next).execute();
    const [a, b] = await Promise.all([
      admin('POST', '/instances', order()),
      admin('POST', '/instances', order()),
    ]);
    const changed = await Promise.all(
      [a, b].map((r) => admin('PATCH', `/instances/${r.body.attributes.uuid}`, { external_id: next })),
    );
    expect(statusesOf(changed)).toEqual([200, 409]);
    const owner = changed.find((r) => r.status === 200)!.body.attributes.uuid;
    expect(await holders('instances', next)).toEqual([owner]);
    expect((await at('instances', next)).body.attributes.uuid).toBe(owner);
  });
});
