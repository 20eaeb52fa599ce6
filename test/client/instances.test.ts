import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { bearer, json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Party, type Stack, startStack } from '../support/stack.js';

let t: Stack;
let owner: Party;
let stranger: Party;
let locationId: string;

beforeAll(async () => {
  t = await startStack();
  ({ client: owner, stranger, locationId } = t);
});
afterAll(() => t.close());

describe('GET /api/client/cloud/{cloudInstance}', () => {
  it('returns the instance envelope with every field of SPEC.md §2', async () => {
    const instance = await seed.instance(t.db, { userId: owner.id, locationId });
    const res = await t.app.request(`/api/client/cloud/${instance.id}`, { headers: bearer(owner.key) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({
      object: 'cloud_instance',
      attributes: {
        uuid: instance.id,
        name: 'web-1',
        hostname: 'web-1.example.test',
        status: 'running',
        cpu_cores: 2,
        memory_mb: 2048,
        disk_mb: 40960,
        primary_ipv4: '203.0.113.10',
        primary_ipv6: null,
        virtualization: 'kvm',
        boot_order: ['disk', 'cdrom'],
        timezone: 'UTC',
        guest_drift: null,
        user_data: null,
        created_at: instance.created_at.toISOString(),
        updated_at: instance.updated_at.toISOString(),
      },
    });
    expect(body.attributes.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("answers another tenant's instance exactly like an unknown one", async () => {
    const instance = await seed.instance(t.db, { userId: owner.id, locationId });
    const foreign = await t.app.request(`/api/client/cloud/${instance.id}`, {
      headers: bearer(stranger.key),
    });
    const unknown = await t.app.request(`/api/client/cloud/${randomUUID()}`, {
      headers: bearer(stranger.key),
    });
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    const [a, b] = [await json(foreign), await json(unknown)];
    expect(a.errors).toEqual(b.errors);
    expect(a.errors[0].code).toBe('SVC-RES-404');
  });

  it('answers a malformed UUID with the same 404', async () => {
    const res = await t.app.request('/api/client/cloud/not-a-uuid', { headers: bearer(owner.key) });
    expect(res.status).toBe(404);
    expect((await json(res)).errors[0].code).toBe('SVC-RES-404');
  });
});

describe('GET /api/client/cloud', () => {
  it('lists only the caller’s instances, newest first, paginated', async () => {
    const user = await seed.user(t.db);
    const key = await seed.key(t.db, user.id, 'client');
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c'])
      ids.push((await seed.instance(t.db, { userId: user.id, locationId, name })).id);
    await seed.instance(t.db, { userId: stranger.id, locationId, name: 'not-mine' });

    const first = await t.app.request('/api/client/cloud?per_page=2', { headers: bearer(key) });
    expect(first.status).toBe(200);
    const page1 = await json(first);
    expect(page1.object).toBe('list');
    expect(page1.data.map((d: { attributes: { uuid: string } }) => d.attributes.uuid)).toEqual([
      ids[2],
      ids[1],
    ]);
    expect(page1.data[0].object).toBe('cloud_instance');
    expect(page1.meta.pagination).toEqual({
      total: 3,
      total_estimated: false,
      count: 2,
      per_page: 2,
      current_page: 1,
      total_pages: 2,
    });

    const page2 = await json(
      await t.app.request('/api/client/cloud?per_page=2&page=2', { headers: bearer(key) }),
    );
    expect(page2.data.map((d: { attributes: { uuid: string } }) => d.attributes.uuid)).toEqual([ids[0]]);
    // Read on by cursor: the same last page, with nothing after it.
    const after = await json(
      await t.app.request(`/api/client/cloud?per_page=2&cursor=${page1.meta.cursor.next}`, {
        headers: bearer(key),
      }),
    );
    expect(after.data).toEqual(page2.data);
    expect(after.meta).toEqual({ cursor: { next: null } });
  });

  it('refuses bad pagination with the fields named', async () => {
    const res = await t.app.request('/api/client/cloud?per_page=1000&page=0', { headers: bearer(owner.key) });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.errors.map((e: { source: { field: string } }) => e.source.field).sort()).toEqual([
      'page',
      'per_page',
    ]);
    expect(body.errors[0].code).toBe('SVC-REQ-400');
  });
});

describe('POST /api/client/cloud/{cloudInstance}/power', () => {
  const power = (id: string, body: unknown, key = owner.key) =>
    t.app.request(`/api/client/cloud/${id}/power`, {
      method: 'POST',
      headers: { ...bearer(key), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('refuses an unknown action with the field named, and changes nothing', async () => {
    const hypervisor = await seed.hypervisor(t.db, locationId);
    const instance = await seed.instance(t.db, { userId: owner.id, locationId, hypervisorId: hypervisor.id });
    const res = await power(instance.id, { action: 'explode' });
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0].source.field).toBe('action');
    expect((await findInstance(t.db, instance.id))?.status).toBe('running');
  });

  it("answers another tenant's instance with 404", async () => {
    const hypervisor = await seed.hypervisor(t.db, locationId);
    const instance = await seed.instance(t.db, { userId: owner.id, locationId, hypervisorId: hypervisor.id });
    expect((await power(instance.id, { action: 'stop' }, stranger.key)).status).toBe(404);
  });

  it('refuses an instance under a migration lease with INSTANCE_MIGRATING', async () => {
    const hypervisor = await seed.hypervisor(t.db, locationId);
    const instance = await seed.instance(t.db, { userId: owner.id, locationId, hypervisorId: hypervisor.id });
    await t.db
      .insertInto('move_leases')
      .values({
        instance_id: instance.id,
        move_id: randomUUID(),
        holder: 'test',
        expires_at: new Date(Date.now() + 60_000),
      })
      .execute();
    const res = await power(instance.id, { action: 'stop' });
    expect(res.status).toBe(409);
    expect((await json(res)).errors[0].code).toBe('INSTANCE_MIGRATING');
    expect((await findInstance(t.db, instance.id))?.status).toBe('running');
  });

  it('refuses an instance not placed on a hypervisor yet', async () => {
    const instance = await seed.instance(t.db, { userId: owner.id, locationId, status: 'stopped' });
    const res = await power(instance.id, { action: 'start' });
    expect(res.status).toBe(409);
    expect((await json(res)).errors[0].code).toBe('SVC-CONFLICT-409');
  });
});
