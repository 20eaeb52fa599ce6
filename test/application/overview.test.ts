import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMigration } from '../../db/repositories/moves/migrations.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const overview = async () => {
  const reply = await t.call(t.admin, 'GET', '/api/application/cloudsvc/overview');
  expect(reply.status).toBe(200);
  return reply.body.attributes;
};

describe('the overview of the Application API', () => {
  it('shows a location’s capacity, used and free, from its online hypervisors and active reservations', async () => {
    const location = await seed.location(t.db);
    await seed.uniqueIpv4Pool(t.db, location.id);
    const online = await seed.hypervisor(t.db, location.id, { cpuCores: 8 });
    await seed.hypervisor(t.db, location.id, { cpuCores: 64 }); // pending: offers nothing yet
    await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', online.id).execute();
    const { plan, image } = await seed.catalog(t.db, { cpu_cores: 2 });
    const order = await t.call(t.client, 'POST', '/api/client/cloud', {
      hostname: 'counted.example.test',
      plan: plan.code,
      image: image.code,
      location: location.code,
    });
    expect(order.status).toBe(202);

    const shown = (await overview()).locations.find((l: { uuid: string }) => l.uuid === location.id);
    expect(shown).toEqual({
      uuid: location.id,
      code: location.code,
      hypervisors_online: 1,
      total: { cpu_cores: 8, memory_mb: 131072, disk_mb: 2_000_000 },
      used: { cpu_cores: 2, memory_mb: 1024, disk_mb: 20480 },
      free: { cpu_cores: 6, memory_mb: 130048, disk_mb: 1_979_520 },
    });
  });

  it('counts by status, and lists unreachable hypervisors and migrations waiting for an operator', async () => {
    const location = await seed.location(t.db);
    const lost = await seed.hypervisor(t.db, location.id);
    await t.db
      .updateTable('hypervisors')
      .set({ status: 'unreachable', last_seen_at: new Date('2000-01-01T00:00:00Z') })
      .where('id', '=', lost.id)
      .execute();
    const target = await seed.hypervisor(t.db, location.id);
    const instance = await seed.instance(t.db, {
      userId: t.client.id,
      locationId: location.id,
      hypervisorId: lost.id,
    });
    const migration = randomUUID();
    await insertMigration(t.db, {
      id: migration,
      instanceId: instance.id,
      sourceHypervisorId: lost.id,
      targetHypervisorId: target.id,
      mode: 'COLD',
      strategy: 'cold',
      operationId: randomUUID(),
      workflowId: `overview-${migration}`,
      requestedBy: 'admin:test',
      reason: null,
      warnings: [],
      networkPlan: {},
    });
    await t.db
      .updateTable('migrations')
      .set({ state: 'RECOVERY_REQUIRED', updated_at: new Date('2000-01-01T00:00:00Z') })
      .where('id', '=', migration)
      .execute();

    const seen = await overview();
    expect(seen.instances.running).toBeGreaterThanOrEqual(1);
    expect(seen.instances.deleted).toBeUndefined();
    expect(seen.hypervisors.unreachable).toBeGreaterThanOrEqual(1);
    expect(seen.migrations.RECOVERY_REQUIRED).toBeGreaterThanOrEqual(1);
    expect(Object.keys(seen.agent_tasks).every((s) => ['queued', 'leased', 'running'].includes(s))).toBe(
      true,
    );
    expect(seen.hypervisors_unreachable).toContainEqual({
      uuid: lost.id,
      name: lost.name,
      last_seen_at: '2000-01-01T00:00:00.000Z',
    });
    expect(seen.migrations_recovery_required).toContainEqual({
      uuid: migration,
      instance_uuid: instance.id,
      since: '2000-01-01T00:00:00.000Z',
    });
    // Asked twice at once: each answer holds what waits.
    for (const answer of await Promise.all([overview(), overview()]))
      expect(answer.migrations_recovery_required.map((m: { uuid: string }) => m.uuid)).toContain(migration);
  });

  it('is not for customers: a client key is refused, and no key', async () => {
    expect((await t.call(t.client, 'GET', '/api/application/cloudsvc/overview')).status).toBe(403);
    expect((await t.call(null, 'GET', '/api/application/cloudsvc/overview')).status).toBe(401);
  });
});
