import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveCapacity } from '../../db/repositories/hypervisors/placement.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/** Storage backends per hypervisor through the Application API, for hypervisors registered through it. */
let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);
const backendsOf = async (query: string) => {
  const reply = await admin('GET', `/storage?${query}`);
  expect(reply.status, query).toBe(200);
  return reply.body.data.map((d: Body) => d.attributes);
};

describe('storage of the Application API', () => {
  it('lists each backend of each hypervisor with its disk, what is reserved and what its instances use', async () => {
    const location = await seed.location(t.db);
    const register = async (storage_backends: string[]) =>
      (
        await admin('POST', '/hypervisors', {
          name: `hv-${randomUUID().slice(0, 8)}`,
          location_uuid: location.id,
          cpu_cores: 16,
          memory_mb: 65536,
          disk_mb: 1_000_000,
          capabilities: [],
          storage_backends,
        })
      ).body.attributes;
    const both = await register(['local', 'ceph']);
    const local = await register(['local']);
    const onCeph = await seed.instance(t.db, {
      userId: t.client.id,
      locationId: location.id,
      hypervisorId: both.uuid,
    });
    await t.db
      .updateTable('instances')
      .set({ storage_backend: 'ceph' })
      .where('id', '=', onCeph.id)
      .execute();
    await reserveCapacity(t.db, {
      hypervisorId: both.uuid,
      instanceId: onCeph.id,
      purpose: 'instance',
      resources: { cpu_cores: 1, memory_mb: 1024, disk_mb: 30_000 },
    });

    const listed = await backendsOf(`location=${location.id}`);
    // By backend, then by hypervisor name.
    const byName = [both, local].sort((a, b) => a.name.localeCompare(b.name)).map((h) => h.uuid);
    expect(listed.map((b: Body) => [b.backend, b.hypervisor.id])).toEqual([
      ['ceph', both.uuid],
      ...byName.map((id) => ['local', id]),
    ]);
    const ceph = listed[0];
    expect(ceph).toEqual({
      backend: 'ceph',
      hypervisor: { id: both.uuid, name: both.name, status: 'pending', location_id: location.id },
      disk_mb: 1_000_000,
      reported_free_disk_mb: null,
      reserved_disk_mb: 30_000,
      used_disk_mb: onCeph.disk_mb,
      instances: 1,
    });
    const bothLocal = listed.find((b: Body) => b.backend === 'local' && b.hypervisor.id === both.uuid);
    expect(bothLocal).toMatchObject({ reserved_disk_mb: 30_000, used_disk_mb: 0, instances: 0 });

    expect(
      (await backendsOf(`location=${location.id}&backend=ceph`)).map((b: Body) => b.hypervisor.id),
    ).toEqual([both.uuid]);
    expect((await backendsOf(`hypervisor=${local.uuid}`)).map((b: Body) => b.backend)).toEqual(['local']);
    const paged = await admin('GET', `/storage?location=${location.id}&per_page=1&page=3`);
    expect(paged.body.meta.pagination).toMatchObject({ total: 3, count: 1 });
  });

  it('refuse a bad filter, and are an administrator’s', async () => {
    for (const query of ['backend=tape', 'location=x', 'per_page=0']) {
      const refused = await admin('GET', `/storage?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.errors[0].code).toBe('SVC-REQ-400');
    }
    expect((await t.call(null, 'GET', '/api/application/cloudsvc/storage')).status).toBe(401);
    expect((await t.call(t.client, 'GET', '/api/application/cloudsvc/storage')).status).toBe(403);
  });
});
