import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Administrators acting on any tenant's instance through the Application API, with a real worker
 * and an in-process agent: create for a user, power, suspend and unsuspend, delete.
 */
let t: Stack;
let catalog: Awaited<ReturnType<typeof seed.catalog>>;
let location: { id: string; code: string };
beforeAll(async () => {
  t = await startStack({ agents: true, config: { INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000' } });
  location = await seed.location(t.db);
  await seed.uniqueIpv4Pool(t.db, location.id);
  catalog = await seed.catalog(t.db);
  await t.hypervisorWithAgent({}, { locationId: location.id });
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body, headers);
const customer = (method: string, path: string, body?: unknown) =>
  t.call(t.client, method, `/api/client/cloud${path}`, body);

const order = (overrides: Record<string, unknown> = {}) => ({
  user: t.client.id,
  hostname: `adm-${randomUUID().slice(0, 6)}.example.test`,
  plan: catalog.plan.code,
  image: catalog.image.code,
  location: location.code,
  ...overrides,
});

async function settled(instanceId: string, status: string): Promise<Body> {
  return eventually(
    async () => {
      const shown = (await admin('GET', `/instances/${instanceId}`)).body;
      return shown.attributes?.status === status && shown.attributes.operation === null ? shown : undefined;
    },
    15_000,
    `instance ${instanceId} ${status}`,
  );
}

async function running(): Promise<string> {
  const created = await admin('POST', '/instances', order());
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  await settled(created.body.attributes.uuid, 'running');
  return created.body.attributes.uuid;
}

const instancesOf = async (userId: string) =>
  Number(
    (
      await t.db
        .selectFrom('instances')
        .select((e) => e.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('an administrator creating an instance for a user', () => {
  it('places and provisions it for the user, who then sees it as their own', async () => {
    const id = await running();
    const shown = (await admin('GET', `/instances/${id}`)).body.attributes;
    expect(shown).toMatchObject({ user_id: t.client.id, location: { code: location.code } });
    expect(shown.hypervisor).not.toBeNull();
    expect((await customer('GET', `/${id}`)).body.attributes.status).toBe('running');
  });

  it('answers the same Idempotency-Key with the first answer, and two keys at once with two instances', async () => {
    const body = order();
    const key = { 'Idempotency-Key': `adm-${randomUUID()}` };
    const first = await admin('POST', '/instances', body, key);
    const again = await admin('POST', '/instances', body, key);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.attributes.uuid).toBe(first.body.attributes.uuid);
    const both = await Promise.all([
      admin('POST', '/instances', order()),
      admin('POST', '/instances', order()),
    ]);
    expect(statusesOf(both)).toEqual([202, 202]);
    expect(new Set(both.map((r) => r.body.attributes.uuid)).size).toBe(2);
    for (const r of [first, ...both]) await settled(r.body.attributes.uuid, 'running');
  });

  it('refuses an unknown or disabled user, and another user’s SSH key, creating nothing', async () => {
    const disabled = await seed.user(t.db);
    await t.db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', disabled.id).execute();
    const stranger = await seed.user(t.db);
    for (const [body, field, owner] of [
      [order({ user: randomUUID() }), 'user', t.client.id],
      [order({ user: disabled.id }), 'user', disabled.id],
      [order({ user: stranger.id, ssh_keys: [randomUUID()] }), 'ssh_keys', stranger.id],
      [order({ user: 'not-a-uuid' }), 'user', t.client.id],
    ] as const) {
      const before = await instancesOf(owner);
      const refused = await admin('POST', '/instances', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors.map((e: Body) => e.source?.field)).toContain(field);
      expect(await instancesOf(owner)).toBe(before);
    }
  });
});

describe('an administrator suspending an instance', () => {
  it('stops a running guest and refuses its customer’s operations, but not the administrator’s', async () => {
    const id = await running();
    const suspended = await admin('POST', `/instances/${id}/suspend`);
    expect(suspended.status).toBe(202);
    expect(suspended.body.attributes).toMatchObject({ status: 'stopping', operation: { kind: 'stop' } });
    expect(suspended.body.attributes.suspended_at).not.toBeNull();
    await settled(id, 'stopped');

    for (const [method, path, body] of [
      ['POST', `/${id}/power`, { action: 'start' }],
      ['POST', `/${id}/rebuild`, {}],
      ['DELETE', `/${id}`, undefined],
    ] as const) {
      const refused = await customer(method, path, body);
      expect(refused.status, path).toBe(409);
      expect(refused.body.errors[0].code).toBe('INSTANCE_SUSPENDED');
    }
    expect((await admin('GET', `/instances/${id}`)).body.attributes).toMatchObject({
      status: 'stopped',
      operation: null,
    });

    expect((await admin('POST', `/instances/${id}/power`, { action: 'start' })).status).toBe(202);
    await settled(id, 'running');
  });

  it('changes nothing when suspended again, and two suspensions at once mark it once', async () => {
    const id = await running();
    const both = await Promise.all([
      admin('POST', `/instances/${id}/suspend`),
      admin('POST', `/instances/${id}/suspend`),
    ]);
    expect(statusesOf(both)).toEqual([200, 202]);
    await settled(id, 'stopped');
    const first = (await admin('GET', `/instances/${id}`)).body.attributes.suspended_at;
    const again = await admin('POST', `/instances/${id}/suspend`);
    expect(again.status).toBe(200);
    expect(again.body.attributes).toMatchObject({ suspended_at: first, status: 'stopped', operation: null });
    const activity = (await customer('GET', `/${id}/activity?per_page=100`)).body.data.map(
      (a: Body) => a.attributes.event,
    );
    expect(activity.filter((e: string) => e === 'instance.suspended')).toHaveLength(1);
  });

  it('is refused while another operation runs, and then changes nothing', async () => {
    // A hypervisor whose power actions take seconds holds the restart while the suspension is asked.
    const slow = await seed.location(t.db);
    await seed.uniqueIpv4Pool(t.db, slow.id);
    await t.hypervisorWithAgent(
      { AGENT_SIM_LATENCY_MS: JSON.stringify({ 'instance.power': 2000, default: 0 }) },
      { locationId: slow.id },
    );
    const created = await admin('POST', '/instances', order({ location: slow.code }));
    const id = created.body.attributes.uuid;
    await settled(id, 'running');
    expect((await customer('POST', `/${id}/power`, { action: 'restart' })).status).toBe(202);
    const refused = await admin('POST', `/instances/${id}/suspend`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('SVC-OP-409');
    await settled(id, 'running');
    expect((await admin('GET', `/instances/${id}`)).body.attributes.suspended_at).toBeNull();
  });

  it('is lifted by unsuspend, once or twice, after which the customer acts again', async () => {
    const id = await running();
    await admin('POST', `/instances/${id}/suspend`);
    await settled(id, 'stopped');
    const lifted = await Promise.all([
      admin('POST', `/instances/${id}/unsuspend`),
      admin('POST', `/instances/${id}/unsuspend`),
    ]);
    expect(statusesOf(lifted)).toEqual([200, 200]);
    const again = await admin('POST', `/instances/${id}/unsuspend`);
    expect(again.body.attributes).toMatchObject({ suspended_at: null, status: 'stopped' });
    expect((await customer('POST', `/${id}/power`, { action: 'start' })).status).toBe(202);
    await settled(id, 'running');
  });
});

describe('an administrator’s power and delete on any tenant’s instance', () => {
  it('powers it off and on, and deletes it, which the customer then no longer has', async () => {
    const id = await running();
    const stopping = await admin('POST', `/instances/${id}/power`, { action: 'stop' });
    expect(stopping.status).toBe(202);
    expect(stopping.body.attributes.operation.kind).toBe('stop');
    await settled(id, 'stopped');
    const repeated = await admin('POST', `/instances/${id}/power`, { action: 'stop' });
    expect(repeated.status).toBe(409);
    expect(repeated.body.errors[0].code).toBe('SVC-CONFLICT-409');
    expect((await admin('DELETE', `/instances/${id}`)).status).toBe(202);
    await eventually(async () => (await admin('GET', `/instances/${id}`)).status === 404, 15_000, 'deleted');
    expect((await customer('GET', `/${id}`)).status).toBe(404);
    expect((await admin('DELETE', `/instances/${id}`)).status).toBe(404);
  });

  it('refuses a power action it does not know and a body on suspend, changing nothing', async () => {
    const id = await running();
    const refused = await admin('POST', `/instances/${id}/power`, { action: 'hibernate' });
    expect(refused.status).toBe(400);
    expect((await admin('POST', `/instances/${id}/suspend`, { reason: 'unpaid' })).status).toBe(400);
    expect((await admin('GET', `/instances/${id}`)).body.attributes).toMatchObject({
      status: 'running',
      suspended_at: null,
      operation: null,
    });
  });

  it('answers a client key with 403 and no key with 401 on every write', async () => {
    const id = randomUUID();
    for (const [method, path, body] of [
      ['POST', '/instances', order()],
      ['POST', `/instances/${id}/power`, { action: 'stop' }],
      ['POST', `/instances/${id}/suspend`, undefined],
      ['POST', `/instances/${id}/unsuspend`, undefined],
      ['DELETE', `/instances/${id}`, undefined],
    ] as const) {
      expect((await t.call(t.client, method, `/api/application/cloudsvc${path}`, body)).status, path).toBe(
        403,
      );
      expect((await t.call(null, method, `/api/application/cloudsvc${path}`, body)).status, path).toBe(401);
    }
  });
});
