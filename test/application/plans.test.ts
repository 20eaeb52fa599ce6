import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlan } from '../../db/repositories/catalogue/plans.js';
import { allPages } from '../support/http.js';
import { expectDeletedOnce, expectFieldRefusals, expectInUseTwice, statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);
const customer = (method: string, path: string) => t.call(t.client, method, `/api/client/cloud${path}`);

const newPlan = (overrides: Record<string, unknown> = {}) => ({
  code: `plan-${randomUUID().slice(0, 8)}`,
  name: 'Small',
  cpu_cores: 2,
  memory_mb: 2048,
  disk_mb: 40960,
  ...overrides,
});

describe('plans of the Application API', () => {
  it('are created, shown, listed, changed and deleted; customers see them to order by', async () => {
    const fields = newPlan({ host_requirements: ['hugepages', 'hugepages'] });
    const created = await admin('POST', '/plans', fields);
    expect(created.status).toBe(201);
    const plan = created.body.attributes;
    expect(plan).toMatchObject({ ...fields, host_requirements: ['hugepages'] });

    expect((await admin('GET', `/plans/${plan.uuid}`)).body.attributes).toEqual(plan);
    const listed = await allPages((page) => admin('GET', `/plans?per_page=100&page=${page}`));
    expect(listed.map((p) => p.attributes.uuid)).toContain(plan.uuid);
    const offered = await allPages((page) => customer('GET', `/plans?per_page=100&page=${page}`));
    const seen = offered.find((p) => p.attributes.code === fields.code);
    expect(seen.attributes).toEqual({
      uuid: plan.uuid,
      code: fields.code,
      name: 'Small',
      cpu_cores: 2,
      memory_mb: 2048,
      disk_mb: 40960,
      location_uuid: null,
      resize_group: null,
      monthly_price_cents: null,
      monthly_transfer_gb: null,
      created_at: plan.created_at,
    });

    const changed = await admin('PATCH', `/plans/${plan.uuid}`, { name: 'Small (2024)', memory_mb: 4096 });
    expect(changed.status).toBe(200);
    expect(changed.body.attributes).toMatchObject({ name: 'Small (2024)', memory_mb: 4096, cpu_cores: 2 });
    // The same change again changes nothing more.
    expect((await admin('PATCH', `/plans/${plan.uuid}`, { name: 'Small (2024)' })).body.attributes).toEqual(
      changed.body.attributes,
    );

    await expectDeletedOnce(admin, `/plans/${plan.uuid}`);
  });

  it('carry what plan changes read: the location offered in, the resize group and the monthly figures', async () => {
    const location = await seed.location(t.db);
    const fields = newPlan({
      location_uuid: location.id,
      resize_group: 'standard',
      monthly_price_cents: 1200,
      monthly_transfer_gb: 2000,
    });
    const created = await admin('POST', '/plans', fields);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.attributes).toMatchObject(fields);
    const { uuid } = created.body.attributes;
    const cleared = await admin('PATCH', `/plans/${uuid}`, {
      location_uuid: null,
      monthly_price_cents: null,
    });
    expect(cleared.body.attributes).toMatchObject({
      location_uuid: null,
      monthly_price_cents: null,
      resize_group: 'standard',
    });
    const unknown = await admin('PATCH', `/plans/${uuid}`, { location_uuid: randomUUID() });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].source).toEqual({ field: 'location_uuid' });
    const orphan = await admin('POST', '/plans', newPlan({ location_uuid: randomUUID() }));
    expect(orphan.status).toBe(400);
    expect(orphan.body.errors[0].source).toEqual({ field: 'location_uuid' });
    expect((await admin('GET', `/plans/${uuid}`)).body.attributes).toEqual(cleared.body.attributes);
    expect((await admin('DELETE', `/plans/${uuid}`)).status).toBe(204);
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [newPlan({ code: 'Has Spaces' }), 'code'],
      [newPlan({ code: '' }), 'code'],
      [newPlan({ cpu_cores: 0 }), 'cpu_cores'],
      [newPlan({ cpu_cores: 513 }), 'cpu_cores'],
      [newPlan({ memory_mb: 63 }), 'memory_mb'],
      [newPlan({ disk_mb: 1.5 }), 'disk_mb'],
      [newPlan({ name: '   ' }), 'name'],
      [newPlan({ host_requirements: ['gpu'] }), 'host_requirements.0'],
      [newPlan({ is_public: 'yes' }), 'is_public'],
      [newPlan({ public: true }), 'public'],
      [newPlan({ resize_group: 'Not A Code' }), 'resize_group'],
      [newPlan({ monthly_price_cents: -1 }), 'monthly_price_cents'],
      [newPlan({ monthly_transfer_gb: 0.5 }), 'monthly_transfer_gb'],
      [newPlan({ location_uuid: 'nowhere' }), 'location_uuid'],
    ];
    await expectFieldRefusals((body) => admin('POST', '/plans', body), cases);
    const { attributes: plan } = (await admin('POST', '/plans', newPlan())).body;
    const planBefore = await findPlan(t.db, plan.uuid);
    const badChange = await admin('PATCH', `/plans/${plan.uuid}`, { code: 'renamed', disk_mb: 0 });
    expect(badChange.status).toBe(400);
    expect(await findPlan(t.db, plan.uuid)).toEqual(planBefore);
    expect((await admin('PATCH', `/plans/${randomUUID()}`, { name: 'x' })).status).toBe(404);
    expect((await admin('DELETE', `/plans/${plan.uuid}`)).status).toBe(204);
    // Other files share the run's database: the refused codes are looked for, not the table's size.
    const refusedCodes = cases.map(([body]) => String(body.code)).filter((code) => code !== '');
    const made = await t.db.selectFrom('plans').select('code').where('code', 'in', refusedCodes).execute();
    expect(made).toEqual([]);
  });

  it('refuses a second plan of one code, also when two are created at once', async () => {
    const fields = newPlan();
    expect((await admin('POST', '/plans', fields)).status).toBe(201);
    expect((await admin('POST', '/plans', { ...fields, name: 'Other' })).body.errors[0].code).toBe(
      'SVC-CONFLICT-409',
    );
    const racing = newPlan();
    const statuses = (
      await Promise.all([admin('POST', '/plans', racing), admin('POST', '/plans', racing)])
    ).map((r) => r.status);
    expect(statuses.sort()).toEqual([201, 409]);
  });

  it('two deletes of one plan at once: one deletes it, the other finds nothing', async () => {
    const { attributes: plan } = (await admin('POST', '/plans', newPlan())).body;
    const statuses = await Promise.all([
      admin('DELETE', `/plans/${plan.uuid}`),
      admin('DELETE', `/plans/${plan.uuid}`),
    ]);
    expect(statusesOf(statuses)).toEqual([204, 404]);
    expect(await findPlan(t.db, plan.uuid)).toBeUndefined();
  });

  it('two changes of one plan at once both apply, each to its own fields', async () => {
    const { attributes: plan } = (await admin('POST', '/plans', newPlan())).body;
    const changes = await Promise.all([
      admin('PATCH', `/plans/${plan.uuid}`, { cpu_cores: 4 }),
      admin('PATCH', `/plans/${plan.uuid}`, { disk_mb: 81920 }),
    ]);
    expect(changes.map((r) => r.status)).toEqual([200, 200]);
    expect(await findPlan(t.db, plan.uuid)).toMatchObject({ cpu_cores: 4, disk_mb: 81920, memory_mb: 2048 });
  });

  it('refuses to delete a plan an instance uses, and deletes it once the instance is deleted', async () => {
    const { attributes: plan } = (await admin('POST', '/plans', newPlan())).body;
    const instance = await seed.instance(t.db, { userId: t.client.id, locationId: t.locationId });
    await t.db.updateTable('instances').set({ plan_id: plan.uuid }).where('id', '=', instance.id).execute();

    await expectInUseTwice(admin, `/plans/${plan.uuid}`, 'The plan is used by 1 instance.');
    expect(await findPlan(t.db, plan.uuid)).toBeDefined();

    await t.db.updateTable('instances').set({ status: 'deleted' }).where('id', '=', instance.id).execute();
    expect((await admin('DELETE', `/plans/${plan.uuid}`)).status).toBe(204);
    const kept = await t.db
      .selectFrom('instances')
      .select('plan_id')
      .where('id', '=', instance.id)
      .executeTakeFirst();
    expect(kept).toEqual({ plan_id: null });
  });

  it('deleted while a customer orders it: the order is refused naming the plan, and nothing is made', async () => {
    const location = await seed.location(t.db);
    const hypervisor = await seed.hypervisor(t.db, location.id);
    await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', hypervisor.id).execute();
    const image = (await seed.catalog(t.db)).image;
    const { attributes: plan } = (await admin('POST', '/plans', newPlan())).body;
    // The delete holds the plan's row until it commits; the order meanwhile found the plan by code.
    let commit!: () => void;
    const held = new Promise<void>((resolve) => {
      commit = resolve;
    });
    const deleting = t.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('plans').where('id', '=', plan.uuid).execute();
      await held;
    });
    const ordering = t.call(t.client, 'POST', '/api/client/cloud', {
      hostname: 'raced.example.test',
      plan: plan.code,
      image: image.code,
      location: location.code,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    commit();
    await deleting;
    const order = await ordering;
    expect(order.status).toBe(400);
    expect(order.body.errors[0].source).toEqual({ field: 'plan' });
    const made = await t.db
      .selectFrom('instances')
      .select('id')
      .where('hostname', '=', 'raced.example.test')
      .execute();
    expect(made).toEqual([]);
  });

  it('withdrawn from sale: customers neither list nor order it; an administrator still orders it for them', async () => {
    const location = await seed.location(t.db);
    await seed.uniqueIpv4Pool(t.db, location.id);
    const hypervisor = await seed.hypervisor(t.db, location.id);
    await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', hypervisor.id).execute();
    const image = (await seed.catalog(t.db)).image;
    const created = await admin('POST', '/plans', newPlan({ is_public: false }));
    expect(created.status).toBe(201);
    const plan = created.body.attributes;
    expect(plan.is_public).toBe(false);
    const offered = async () =>
      (await allPages((page) => customer('GET', `/plans?per_page=100&page=${page}`))).map(
        (p) => p.attributes.code,
      );
    expect(await offered()).not.toContain(plan.code);
    const listed = await allPages((page) => admin('GET', `/plans?per_page=100&page=${page}`));
    expect(listed.find((p) => p.attributes.uuid === plan.uuid)?.attributes.is_public).toBe(false);

    const order = {
      hostname: 'withdrawn.example.test',
      plan: plan.code,
      image: image.code,
      location: location.code,
    };
    const refused = await t.call(t.client, 'POST', '/api/client/cloud', order);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].source).toEqual({ field: 'plan' });
    const forThem = await admin('POST', '/instances', { ...order, user: t.client.id });
    expect(forThem.status).toBe(202);
    const made = (await admin('GET', `/instances/${forThem.body.attributes.uuid}`)).body.attributes;
    expect(made).toMatchObject({ user_id: t.client.id, plan_id: plan.uuid });

    const back = await admin('PATCH', `/plans/${plan.uuid}`, { is_public: true });
    expect(back.body.attributes).toEqual({ ...plan, is_public: true });
    expect(await offered()).toContain(plan.code);
    expect(
      (await t.call(t.client, 'POST', '/api/client/cloud', { ...order, hostname: 'on-sale.example.test' }))
        .status,
    ).toBe(202);
  });

  it('are not for customers: a client key is refused, and no key', async () => {
    const asClient = await t.call(t.client, 'POST', '/api/application/cloudsvc/plans', newPlan());
    expect(asClient.status).toBe(403);
    const anonymous = await t.call(null, 'GET', '/api/application/cloudsvc/plans');
    expect(anonymous.status).toBe(401);
  });
});

describe('locations of the Client API', () => {
  it('lists every location by code, to order in', async () => {
    const listed = await customer('GET', '/locations');
    expect(listed.status).toBe(200);
    const codes = listed.body.data.map((l: { attributes: { code: string } }) => l.attributes.code);
    expect(codes).toEqual([...codes].sort());
    expect(listed.body.data.map((l: { attributes: { uuid: string } }) => l.attributes.uuid)).toContain(
      t.locationId,
    );
  });
});
