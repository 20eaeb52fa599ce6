import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_ITEMS, MAX_JSON_NESTING } from '../../domain/input-bounds.js';
import { type Body, bearer, json, jsonHeaders } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/** What the fuzz suite found answered 500, kept as plain tests of the rules that now hold. */

let t: Stack;
let appKey: string;
let agentKey: string;
let clientKey: string;
let instanceId: string;
let locationId: string;

beforeAll(async () => {
  t = await startStack();
  appKey = t.admin.key;
  clientKey = t.client.key;
  const agent = await t.agent();
  locationId = agent.hypervisor.location_id;
  agentKey = agent.key;
  instanceId = (await seed.instance(t.db, { userId: t.client.id, locationId, hypervisorId: agent.id })).id;
});
afterAll(() => t.close());

/**
 * The hypervisors of this file's location, where a refused create would have put one: other test
 * files create hypervisors in the run's database at the same time, in locations of their own.
 */
const hypervisorCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('hypervisors')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('location_id', '=', locationId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const createHypervisor = (fields: Record<string, unknown>) =>
  t.app.request('/api/application/cloudsvc/hypervisors', {
    method: 'POST',
    headers: jsonHeaders(appKey),
    body: JSON.stringify({
      name: 'hv-list',
      location_uuid: locationId,
      cpu_cores: 8,
      memory_mb: 1,
      disk_mb: 1,
      ...fields,
    }),
  });

describe('a CPU sample too close to zero for a real column (it was a 500)', () => {
  it('is stored as the zero the column would hold', async () => {
    const sampledAt = new Date(Date.now() - 60_000).toISOString();
    const res = await t.app.request('/api/cloudsvc/agent/metrics', {
      method: 'POST',
      headers: jsonHeaders(agentKey),
      body: JSON.stringify({
        samples: [
          {
            instance_uuid: instanceId,
            sampled_at: sampledAt,
            cpu_percent: 1e-300,
            memory_used_mb: 1,
            disk_read_bytes: 0,
            disk_write_bytes: 0,
            net_rx_bytes: 0,
            net_tx_bytes: 0,
          },
        ],
      }),
    });
    expect(res.status).toBe(202);
    expect((await json(res)).attributes.stored).toBe(1);
    const samples = await json(
      await t.app.request(`/api/client/cloud/${instanceId}/metrics?since=${sampledAt}`, {
        headers: bearer(clientKey),
      }),
    );
    expect(samples.attributes.samples.map((s: Body) => s.cpu_percent)).toEqual([0]);
  });
});

describe('a list of wrong items larger than any route takes (200,000 of them were a 500)', () => {
  it('is refused with 400 naming the list before any item is looked at, and nothing is stored', async () => {
    const before = await hypervisorCount();
    const res = await createHypervisor({ storage_backends: new Array(200_000).fill(1) });
    const body = await json(res);
    expect(res.status).toBe(400);
    expect(body.errors).toEqual([
      expect.objectContaining({
        code: 'SVC-REQ-400',
        source: { field: 'storage_backends' },
        detail: `Must hold at most ${MAX_JSON_ITEMS} items.`,
      }),
    ]);
    expect(await hypervisorCount()).toBe(before);
  });

  it('within the item limit, gets at most 100 field errors back', async () => {
    const res = await createHypervisor({ storage_backends: new Array(MAX_JSON_ITEMS).fill(1) });
    const body = await json(res);
    expect(res.status).toBe(400);
    expect(body.errors).toHaveLength(100);
    expect(body.errors[0].source.field).toBe('storage_backends.0');
  });
});

describe('a body nested deeper than any route takes', () => {
  it('is refused with 400 naming where, even in a field the route would drop', async () => {
    const deep = `${'['.repeat(MAX_JSON_NESTING + 10)}${']'.repeat(MAX_JSON_NESTING + 10)}`;
    const res = await t.app.request('/api/cloudsvc/agent/heartbeat', {
      method: 'POST',
      headers: jsonHeaders(agentKey),
      body: `{"agent_version":"1.0","capabilities":[],"free":{"cpu_cores":1,"memory_mb":1,"disk_mb":1},"extra":${deep}}`,
    });
    const body = await json(res);
    expect(res.status).toBe(400);
    expect(body.errors[0].detail).toBe(`Must be nested at most ${MAX_JSON_NESTING} levels deep.`);
    expect(body.errors[0].source.field).toMatch(/^extra(\.0)+$/);
  });

  it('within the limit, is judged by the route: here an unknown field, refused for being unknown', async () => {
    const nested = `${'['.repeat(10)}${']'.repeat(10)}`;
    const res = await t.app.request('/api/cloudsvc/agent/heartbeat', {
      method: 'POST',
      headers: jsonHeaders(agentKey),
      body: `{"agent_version":"1.0","capabilities":[],"free":{"cpu_cores":1,"memory_mb":1,"disk_mb":1},"extra":${nested}}`,
    });
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toEqual([
      expect.objectContaining({
        code: 'SVC-REQ-400',
        detail: 'extra: Unknown field.',
        source: { field: 'extra' },
      }),
    ]);
  });
});
