import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveCapacity } from '../../db/repositories/hypervisors/placement.js';
import { insertMigration } from '../../db/repositories/moves/migrations.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Reservations through the Application API: room held on hypervisors and addresses held from pools,
 * each with what holds it. The instance's are made by a customer's order, as in production.
 */
let t: Stack;
let place: { locationId: string; hypervisorId: string; targetId: string; poolId: string };
let instanceId: string;
let migrationId: string;
beforeAll(async () => {
  t = await startStack();
  const location = await seed.location(t.db);
  const pool = await seed.uniqueIpv4Pool(t.db, location.id);
  const hypervisor = await seed.hypervisor(t.db, location.id);
  const target = await seed.hypervisor(t.db, location.id);
  await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', hypervisor.id).execute();
  place = { locationId: location.id, hypervisorId: hypervisor.id, targetId: target.id, poolId: pool.id };
  const { plan, image } = await seed.catalog(t.db, { cpu_cores: 2 });
  const order = await t.call(t.client, 'POST', '/api/client/cloud', {
    hostname: 'held.example.test',
    plan: plan.code,
    image: image.code,
    location: location.code,
  });
  expect(order.status).toBe(202);
  instanceId = order.body.attributes.uuid;

  // A migration under way holds room on its target (services/migrations/request.ts does the same).
  migrationId = randomUUID();
  await insertMigration(t.db, {
    id: migrationId,
    instanceId,
    sourceHypervisorId: hypervisor.id,
    targetHypervisorId: target.id,
    mode: 'COLD',
    strategy: 'cold',
    operationId: randomUUID(),
    workflowId: `reservations-${migrationId}`,
    requestedBy: 'admin:test',
    reason: null,
    warnings: [],
    networkPlan: {},
  });
  await reserveCapacity(t.db, {
    hypervisorId: target.id,
    instanceId,
    purpose: 'migration',
    resources: { cpu_cores: 2, memory_mb: 1024, disk_mb: 20480 },
  });
});
afterAll(() => t.close());

const admin = (path: string) => t.call(t.admin, 'GET', `/api/application/cloudsvc${path}`);
const attributesOf = async (path: string) => {
  const reply = await admin(path);
  expect(reply.status, path).toBe(200);
  return reply.body.data.map((d: Body) => d.attributes);
};

describe('reservations of the Application API', () => {
  it('show the room an order holds and the room a migration holds on its target, with their holders', async () => {
    const held = await attributesOf(`/reservations?instance=${instanceId}`);
    expect(held).toHaveLength(2);
    const [migration, own] = held;
    expect(own).toMatchObject({
      purpose: 'instance',
      state: 'active',
      cpu_cores: 2,
      hypervisor: { id: place.hypervisorId },
      held_by: {
        instance: { id: instanceId, name: 'held.example.test', user_id: t.client.id },
        migration_id: null,
      },
      released_at: null,
    });
    expect(migration).toMatchObject({
      purpose: 'migration',
      state: 'active',
      hypervisor: { id: place.targetId },
      held_by: { instance: { id: instanceId }, migration_id: migrationId },
    });
    expect(await attributesOf(`/reservations?hypervisor=${place.targetId}`)).toEqual([migration]);
    expect(await attributesOf(`/reservations?instance=${instanceId}&purpose=instance`)).toEqual([own]);
  });

  it('tell released and expired reservations from active ones', async () => {
    const hypervisor = await seed.hypervisor(t.db, place.locationId);
    const instance = await seed.instance(t.db, {
      userId: t.client.id,
      locationId: place.locationId,
      hypervisorId: hypervisor.id,
    });
    const resources = { cpu_cores: 1, memory_mb: 512, disk_mb: 1024 };
    await reserveCapacity(t.db, {
      hypervisorId: hypervisor.id,
      instanceId: instance.id,
      purpose: 'instance',
      resources,
    });
    await reserveCapacity(t.db, {
      hypervisorId: hypervisor.id,
      instanceId: instance.id,
      purpose: 'migration',
      resources,
    });
    await t.db
      .updateTable('reservations')
      .set({ released_at: new Date() })
      .where('instance_id', '=', instance.id)
      .where('purpose', '=', 'migration')
      .execute();
    const states = async (state: string) =>
      (await attributesOf(`/reservations?hypervisor=${hypervisor.id}&state=${state}`)).map(
        (r: Body) => r.purpose,
      );
    expect(await states('active')).toEqual(['instance']);
    expect(await states('released')).toEqual(['migration']);
    await t.db
      .updateTable('reservations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('instance_id', '=', instance.id)
      .where('purpose', '=', 'instance')
      .execute();
    expect(await states('expired')).toEqual(['instance']);
    expect(await states('active')).toEqual([]);
  });

  it('show the addresses taken from pools, held by an instance or by an account', async () => {
    const onInstance = await attributesOf(`/reservations/addresses?instance=${instanceId}`);
    expect(onInstance).toEqual([
      expect.objectContaining({
        family: 4,
        kind: 'fixed',
        is_primary: true,
        pool: expect.objectContaining({ id: place.poolId, location_id: place.locationId }),
        held_by: 'instance',
        instance: { id: instanceId, name: 'held.example.test' },
        user_id: t.client.id,
      }),
    ]);
    // An address of the account on no instance, as a floating address is between instances.
    const pool = await t.db
      .selectFrom('ip_pools')
      .select('cidr')
      .where('id', '=', place.poolId)
      .executeTakeFirstOrThrow();
    const floating = pool.cidr.replace(/\.0\/\d+$/, '.200');
    await t.db
      .insertInto('ip_addresses')
      .values({
        pool_id: place.poolId,
        address: floating,
        kind: 'floating',
        user_id: t.client.id,
        instance_id: null,
      })
      .execute();
    const ofUser = await attributesOf(
      `/reservations/addresses?user=${t.client.id}&pool=${place.poolId}&held_by=user`,
    );
    expect(ofUser).toEqual([
      expect.objectContaining({ address: floating, kind: 'floating', held_by: 'user', instance: null }),
    ]);
    expect((await attributesOf(`/reservations/addresses?location=${place.locationId}`)).length).toBe(2);
    expect(await attributesOf(`/reservations/addresses?location=${randomUUID()}`)).toEqual([]);
  });

  it('read on by cursor, page after page, without repeating one', async () => {
    const first = await admin(`/reservations?instance=${instanceId}&per_page=1`);
    expect(first.body.meta.pagination.total).toBe(2);
    const next = first.body.meta.cursor.next;
    expect(next).toEqual(expect.any(String));
    const second = await admin(`/reservations?instance=${instanceId}&per_page=1&cursor=${next}`);
    expect(second.body.meta.pagination).toBeUndefined();
    expect(second.body.meta.cursor.next).toBeNull();
    expect(second.body.data[0].attributes.uuid).not.toBe(first.body.data[0].attributes.uuid);
  });

  it('refuse a bad filter or page, and are an administrator’s', async () => {
    for (const query of [
      '/reservations?state=held',
      '/reservations?purpose=backup',
      '/reservations?hypervisor=nope',
      '/reservations?page=1&cursor=abc',
      '/reservations/addresses?held_by=pool',
      '/reservations/addresses?cursor=%%%',
    ]) {
      const refused = await admin(query);
      expect(refused.status, query).toBe(400);
      expect(refused.body.errors[0].code).toBe('SVC-REQ-400');
    }
    for (const path of ['/reservations', '/reservations/addresses']) {
      expect((await t.call(null, 'GET', `/api/application/cloudsvc${path}`)).status).toBe(401);
      expect((await t.call(t.client, 'GET', `/api/application/cloudsvc${path}`)).status).toBe(403);
    }
  });
});
