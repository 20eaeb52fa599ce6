import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_REQUIREMENTS } from '../../domain/instances/host-requirements.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * What binds an instance to its host is set by administrators through the Application API, on the
 * instance or on its plan, and each requirement reaches its HOST_BOUND_* preflight blocker over HTTP.
 */
let t: Stack;
beforeAll(async () => {
  t = await startStack({ config: { INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000' } });
});
afterAll(() => t.close());

const BLOCKER = {
  cpu_host_passthrough: 'HOST_BOUND_CPU_PASSTHROUGH',
  gpu_passthrough: 'HOST_BOUND_GPU_PASSTHROUGH',
  pci_passthrough: 'HOST_BOUND_PCI_PASSTHROUGH',
  numa_pinning: 'HOST_BOUND_NUMA',
  hugepages: 'HOST_BOUND_HUGEPAGES',
} as const;

const setOnInstance = (instanceId: string, requirements: unknown) =>
  t.admin.call('PUT', `/api/application/cloudsvc/instances/${instanceId}/host-requirements`, {
    host_requirements: requirements,
  });

const blockersOf = async (instanceId: string): Promise<string[]> => {
  const res = await t.admin.call('POST', `/admin/cloudsvc/instances/${instanceId}/migrations/preflight`, {
    mode: 'AUTO',
  });
  expect(res.status).toBe(200);
  return res.body.attributes.blockers.map((b: Body) => b.code);
};

async function placedInstance() {
  const hypervisor = await seed.hypervisor(t.db);
  return seed.instance(t.db, {
    userId: t.client.id,
    locationId: hypervisor.location_id,
    hypervisorId: hypervisor.id,
  });
}

describe('host requirements of an instance', () => {
  for (const requirement of HOST_REQUIREMENTS) {
    it(`${requirement} blocks a migration with ${BLOCKER[requirement]}; set twice it is the same; cleared it is gone`, async () => {
      const instance = await placedInstance();
      expect(await blockersOf(instance.id)).not.toContain(BLOCKER[requirement]);
      for (let round = 0; round < 2; round++) {
        const res = await setOnInstance(instance.id, [requirement]);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          object: 'host_requirements',
          attributes: { uuid: instance.id, host_requirements: [requirement] },
        });
        expect(await blockersOf(instance.id)).toContain(BLOCKER[requirement]);
      }
      expect((await setOnInstance(instance.id, [])).status).toBe(200);
      expect(await blockersOf(instance.id)).not.toContain(BLOCKER[requirement]);
    });
  }

  it('two set at once both hold; a repeated one is kept once', async () => {
    const instance = await placedInstance();
    const res = await setOnInstance(instance.id, ['numa_pinning', 'hugepages', 'numa_pinning']);
    expect(res.body.attributes.host_requirements).toEqual(['numa_pinning', 'hugepages']);
    const blockers = await blockersOf(instance.id);
    expect(blockers).toEqual(expect.arrayContaining(['HOST_BOUND_NUMA', 'HOST_BOUND_HUGEPAGES']));
  });

  it('refuses an unknown requirement and an unknown instance, changing nothing', async () => {
    const instance = await placedInstance();
    const bad = await setOnInstance(instance.id, ['quantum_entanglement']);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.field).toBe('host_requirements.0');
    expect(await blockersOf(instance.id)).not.toContain('HOST_BOUND_CPU_PASSTHROUGH');
    expect((await setOnInstance(randomUUID(), ['hugepages'])).status).toBe(404);
    const client = await t.client.call(
      'PUT',
      `/api/application/cloudsvc/instances/${instance.id}/host-requirements`,
      {
        host_requirements: ['hugepages'],
      },
    );
    expect(client.status).toBe(403);
  });
});

describe('host requirements of a plan', () => {
  it('are taken by each instance created from the plan afterwards, and reach the preflight', async () => {
    const location = await seed.location(t.db);
    await seed.uniqueIpv4Pool(t.db, location.id);
    const hypervisor = await seed.hypervisor(t.db, location.id);
    await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', hypervisor.id).execute();
    const { plan, image } = await seed.catalog(t.db);
    const set = await t.admin.call('PUT', `/api/application/cloudsvc/plans/${plan.id}/host-requirements`, {
      host_requirements: ['gpu_passthrough'],
    });
    expect(set.status).toBe(200);
    expect(set.body.attributes).toEqual({ uuid: plan.id, host_requirements: ['gpu_passthrough'] });
    const created = await t.client.call('POST', '/api/client/cloud', {
      hostname: `gpu-${randomUUID().slice(0, 6)}.example.com`,
      plan: plan.code,
      image: image.code,
      location: location.code,
    });
    expect(created.status).toBe(202);
    expect(await blockersOf(created.body.attributes.uuid)).toContain('HOST_BOUND_GPU_PASSTHROUGH');
    expect(
      (
        await t.admin.call('PUT', `/api/application/cloudsvc/plans/${randomUUID()}/host-requirements`, {
          host_requirements: [],
        })
      ).status,
    ).toBe(404);
  });
});
