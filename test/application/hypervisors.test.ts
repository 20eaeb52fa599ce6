import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, jsonHeaders } from '../support/http.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
let key: string;
let locationId: string;
const base = '/api/application/cloudsvc';

beforeAll(async () => {
  t = await startStack();
  key = t.admin.key;
  locationId = t.locationId;
});
afterAll(() => t.close());

const send = (method: string, path: string, body?: unknown) =>
  t.app.request(`${base}${path}`, {
    method,
    headers: body === undefined ? bearer(key) : jsonHeaders(key),
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const valid = () => ({
  name: `hv-${randomUUID().slice(0, 8)}`,
  location_uuid: locationId,
  cpu_cores: 64,
  memory_mb: 262144,
  disk_mb: 4_000_000,
  capabilities: ['live_migration', 'live_migration', 'hugepages'],
  storage_backends: ['local', 'ceph'],
});

describe('hypervisors', () => {
  it('are created pending, shown, listed and updated', async () => {
    const fields = valid();
    const created = await send('POST', '/hypervisors', fields);
    expect(created.status).toBe(201);
    const hv = (await json(created)).attributes;
    expect(hv).toMatchObject({
      name: fields.name,
      location_uuid: locationId,
      status: 'pending',
      maintenance: false,
      capabilities: ['live_migration', 'hugepages'],
      storage_backends: ['local', 'ceph'],
      capacity: { cpu_cores: 64, memory_mb: 262144, disk_mb: 4_000_000 },
      free: null,
      agent: { version: null, last_seen_at: null, enrolled_at: null },
    });

    expect((await json(await send('GET', `/hypervisors/${hv.uuid}`))).attributes.name).toBe(fields.name);
    // The run's database holds every test file's hypervisors: look through the pages.
    let listed = false;
    for (let page = 1; !listed; page++) {
      const list = await json(await send('GET', `/hypervisors?per_page=100&page=${page}`));
      expect(list.object).toBe('list');
      listed = list.data.some((d: { attributes: { uuid: string } }) => d.attributes.uuid === hv.uuid);
      if (page >= list.meta.pagination.total_pages) break;
    }
    expect(listed).toBe(true);

    const updated = await send('PATCH', `/hypervisors/${hv.uuid}`, { cpu_cores: 48 });
    expect(updated.status).toBe(200);
    // Only what the PATCH names changes.
    expect((await json(updated)).attributes).toMatchObject({
      capabilities: ['live_migration', 'hugepages'],
      storage_backends: ['local', 'ceph'],
      capacity: { cpu_cores: 48, memory_mb: 262144 },
    });
    const cleared = await send('PATCH', `/hypervisors/${hv.uuid}`, { capabilities: [] });
    expect((await json(cleared)).attributes.capabilities).toEqual([]);

    const maintenance = await send('POST', `/hypervisors/${hv.uuid}/maintenance`, { enabled: true });
    expect((await json(maintenance)).attributes.maintenance).toBe(true);
    const back = await send('POST', `/hypervisors/${hv.uuid}/maintenance`, { enabled: false });
    expect((await json(back)).attributes.maintenance).toBe(false);
  });

  it('refuses bad input with named fields and changes nothing', async () => {
    const res = await send('POST', '/hypervisors', {
      ...valid(),
      capabilities: ['teleport'],
      storage_backends: [],
    });
    expect(res.status).toBe(400);
    const fields = (await json(res)).errors.map((e: { source: { field: string } }) => e.source.field);
    expect(fields).toEqual(expect.arrayContaining(['capabilities.0', 'storage_backends']));

    const unknownLocation = await send('POST', '/hypervisors', { ...valid(), location_uuid: randomUUID() });
    expect(unknownLocation.status).toBe(400);
    expect((await json(unknownLocation)).errors[0].source.field).toBe('location_uuid');

    const empty = await send('PATCH', `/hypervisors/${randomUUID()}`, {});
    expect(empty.status).toBe(400);
  });

  it('refuses a duplicate name with 409', async () => {
    const fields = valid();
    expect((await send('POST', '/hypervisors', fields)).status).toBe(201);
    const again = await send('POST', '/hypervisors', fields);
    expect(again.status).toBe(409);
    expect((await json(again)).errors[0].code).toBe('SVC-CONFLICT-409');
  });

  it('answer 404 for unknown ids on every route', async () => {
    const id = randomUUID();
    for (const [method, path, body] of [
      ['GET', `/hypervisors/${id}`],
      ['PATCH', `/hypervisors/${id}`, { cpu_cores: 2 }],
      ['POST', `/hypervisors/${id}/maintenance`, { enabled: true }],
      ['POST', `/hypervisors/${id}/enrollment-token`],
      ['POST', `/hypervisors/${id}/revoke-agent`],
    ] as const) {
      const res = await send(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });

  it('never returns an enrollment token twice nor stores it in clear', async () => {
    const hv = (await json(await send('POST', '/hypervisors', valid()))).attributes;
    const { token } = (await json(await send('POST', `/hypervisors/${hv.uuid}/enrollment-token`))).attributes;
    const shown = await send('GET', `/hypervisors/${hv.uuid}`);
    expect(await shown.text()).not.toContain(token);
    const rows = await t.db
      .selectFrom('credentials')
      .selectAll()
      .where('hypervisor_id', '=', hv.uuid)
      .execute();
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('lists locations', async () => {
    const body = await json(await send('GET', '/locations'));
    expect(body.data.some((l: { attributes: { uuid: string } }) => l.attributes.uuid === locationId)).toBe(
      true,
    );
  });
});
