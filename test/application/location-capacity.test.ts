import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveCapacity } from '../../db/repositories/hypervisors/placement.js';
import type { Body } from '../support/http.js';
import { statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Stock per location (docs/api.md "Stock per location"): how many more of each plan placement
 * could put in a location now, checked against what orders then do. Hypervisors of known size are
 * made online with no agent; orders reserve their room in the creating transaction.
 */
let t: Stack;
let image: string;
beforeAll(async () => {
  t = await startStack({ config: { INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000' } });
  image = (await seed.catalog(t.db)).image.code;
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

async function hypervisor(
  locationId: string,
  size: { cpu_cores: number; memory_mb: number; disk_mb: number },
  state: 'online' | 'pending' | 'maintenance' = 'online',
): Promise<string> {
  const created = await admin('POST', '/hypervisors', {
    name: `cap-${randomUUID().slice(0, 8)}`,
    location_uuid: locationId,
    ...size,
  });
  expect(created.status).toBe(201);
  const id = created.body.attributes.uuid as string;
  // Online is what an agent's heartbeat makes it; none runs here.
  if (state !== 'pending')
    await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', id).execute();
  if (state === 'maintenance')
    expect((await admin('POST', `/hypervisors/${id}/maintenance`, { enabled: true })).status).toBe(200);
  return id;
}

async function plan(
  size: { cpu_cores: number; memory_mb: number; disk_mb: number },
  offer: { location_uuid?: string; is_public?: boolean } = {},
) {
  const created = await admin('POST', '/plans', {
    code: `cap-${randomUUID().slice(0, 8)}`,
    name: 'Stock plan',
    ...size,
    ...offer,
  });
  expect(created.status).toBe(201);
  return created.body.attributes as { uuid: string; code: string };
}

const capacity = async (locationId: string) => {
  const reply = await admin('GET', `/locations/${locationId}/capacity`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.attributes as Body;
};
const stockOf = async (locationId: string, planId: string) =>
  (await capacity(locationId)).plans.find((p: Body) => p.uuid === planId);

const orderOf = (location: { code: string }, planCode: string) => () =>
  admin('POST', '/instances', {
    user: t.client.id,
    hostname: `cap-${randomUUID().slice(0, 6)}.example.test`,
    plan: planCode,
    image,
    location: location.code,
  });

/** A /30 with its gateway, one address to hand out, of a range no other file of the run draws. */
async function tinyPool(locationId: string): Promise<void> {
  const [a, b] = [Math.floor(Math.random() * 256), Math.floor(Math.random() * 64) * 4];
  try {
    await seed.ipPool(t.db, locationId, `172.31.${a}.${b}/30`, `172.31.${a}.${b + 1}`);
  } catch (error) {
    // Pools never overlap (ip_pools_no_overlap): a range drawn already is drawn again.
    if ((error as { code?: unknown }).code === '23P01') return tinyPool(locationId);
    throw error;
  }
}

describe('the stock of a location', () => {
  it('counts each plan’s room by placement’s rule, and orders take exactly that many', async () => {
    const location = await seed.location(t.db);
    await seed.uniqueIpv4Pool(t.db, location.id);
    const two = { cpu_cores: 2, memory_mb: 4096, disk_mb: 20480 };
    // Room for 2-core plans: cores for 4 (memory 4, disk 9); cores for 2 (memory 8, disk 4).
    await hypervisor(location.id, { cpu_cores: 8, memory_mb: 16384, disk_mb: 200_000 });
    await hypervisor(location.id, { cpu_cores: 4, memory_mb: 32768, disk_mb: 100_000 });
    // Room for one, held by an instance already placed on it: full.
    const full = await hypervisor(location.id, two);
    const placed = await seed.instance(t.db, {
      userId: t.client.id,
      locationId: location.id,
      hypervisorId: full,
    });
    await reserveCapacity(t.db, {
      hypervisorId: full,
      instanceId: placed.id,
      purpose: 'instance',
      resources: two,
    });
    // Large, but not taking orders.
    await hypervisor(location.id, { cpu_cores: 64, memory_mb: 262144, disk_mb: 2_000_000 }, 'pending');
    const resting = await hypervisor(
      location.id,
      { cpu_cores: 64, memory_mb: 262144, disk_mb: 2_000_000 },
      'maintenance',
    );

    const standard = await plan(two, { location_uuid: location.id });
    const small = await plan(
      { cpu_cores: 1, memory_mb: 1024, disk_mb: 10240 },
      { location_uuid: location.id },
    );
    const hidden = await plan(two, { location_uuid: location.id, is_public: false });
    const elsewhere = await plan(two, { location_uuid: (await seed.location(t.db)).id });

    const first = await capacity(location.id);
    expect(first).toMatchObject({
      location: { uuid: location.id, code: location.code },
      hypervisors_taking_orders: 3,
      ipv4_free: 253,
    });
    const listed = first.plans.map((p: Body) => p.uuid);
    expect(listed).toEqual(expect.arrayContaining([standard.uuid, small.uuid]));
    expect(listed).not.toContain(hidden.uuid);
    expect(listed).not.toContain(elsewhere.uuid);
    expect(first.plans.find((p: Body) => p.uuid === standard.uuid)).toEqual({
      uuid: standard.uuid,
      code: standard.code,
      name: 'Stock plan',
      ...two,
      available: 6,
      hypervisor_room: 6,
      limited_by: 'hypervisors',
    });
    // 1-core plans: 8 on the roomy one (memory 16, disk 19), 4 on the other (disk 9), none on the full.
    expect((await stockOf(location.id, small.uuid)).available).toBe(12);
    // Reading changes nothing: twice, the same figures.
    const again = await capacity(location.id);
    expect({ ...again, measured_at: null }).toEqual({ ...first, measured_at: null });

    // Ordered until the figure says 1, each order taking one.
    const order = orderOf(location, standard.code);
    for (let left = 6; left > 1; left--) {
      expect((await stockOf(location.id, standard.uuid)).available).toBe(left);
      const ordered = await order();
      expect(ordered.status, JSON.stringify(ordered.body)).toBe(202);
    }
    expect((await stockOf(location.id, standard.uuid)).available).toBe(1);
    // Two at once for the last one: one is placed, the other refused.
    const both = await Promise.all([order(), order()]);
    expect(statusesOf(both)).toEqual([202, 409]);
    expect(both.find((r) => r.status === 409)!.body.errors[0].code).toBe('SVC-PLACEMENT-409');
    expect((await stockOf(location.id, standard.uuid)).available).toBe(0);
    const refused = await order();
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('SVC-PLACEMENT-409');
    // The 2-core orders took every core of both hosts: no 1-core order fits either, and none is placed.
    expect(await stockOf(location.id, small.uuid)).toMatchObject({ available: 0, hypervisor_room: 0 });
    expect((await orderOf(location, small.code)()).body.errors[0].code).toBe('SVC-PLACEMENT-409');
    expect((await capacity(location.id)).ipv4_free).toBe(253 - 6);

    // A hypervisor taken out of maintenance is counted again at once: 32 of 64 cores.
    expect((await admin('POST', `/hypervisors/${resting}/maintenance`, { enabled: false })).status).toBe(200);
    expect((await stockOf(location.id, standard.uuid)).available).toBe(32);
  });

  it('is no more than the free addresses: the order after the last address is refused', async () => {
    const location = await seed.location(t.db);
    await tinyPool(location.id);
    await hypervisor(location.id, { cpu_cores: 32, memory_mb: 65536, disk_mb: 1_000_000 });
    const offered = await plan(
      { cpu_cores: 2, memory_mb: 4096, disk_mb: 20480 },
      { location_uuid: location.id },
    );
    expect(await stockOf(location.id, offered.uuid)).toMatchObject({
      available: 1,
      hypervisor_room: 16,
      limited_by: 'addresses',
    });
    const order = orderOf(location, offered.code);
    expect((await order()).status).toBe(202);
    expect(await stockOf(location.id, offered.uuid)).toMatchObject({ available: 0, hypervisor_room: 15 });
    const refused = await order();
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('SVC-IP-409');
  });

  it('of a location with no hypervisor is none of anything; an unknown or malformed location is 404', async () => {
    const location = await seed.location(t.db);
    const offered = await plan(
      { cpu_cores: 1, memory_mb: 1024, disk_mb: 10240 },
      { location_uuid: location.id },
    );
    expect(await capacity(location.id)).toMatchObject({ hypervisors_taking_orders: 0, ipv4_free: 0 });
    expect(await stockOf(location.id, offered.uuid)).toMatchObject({
      available: 0,
      hypervisor_room: 0,
      limited_by: 'hypervisors',
    });
    for (const id of [randomUUID(), 'not-a-uuid', `${location.id}x`]) {
      const missing = await admin('GET', `/locations/${id}/capacity`);
      expect(missing.status).toBe(404);
      expect(missing.body.errors[0].code).toBe('SVC-RES-404');
    }
    const customer = await t.call(
      t.client,
      'GET',
      `/api/application/cloudsvc/locations/${location.id}/capacity`,
    );
    expect(customer.status).toBe(403);
  });
});
