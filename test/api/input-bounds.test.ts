import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { INT4_MAX } from '../../domain/input-bounds.js';
import { type Body, bearer, json, jsonHeaders } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
let appKey: string;
let agentKey: string;
let hypervisorId: string;
let locationId: string;

beforeAll(async () => {
  t = await startStack();
  appKey = t.admin.key;
  const agent = await t.agent();
  hypervisorId = agent.id;
  locationId = agent.hypervisor.location_id;
  agentKey = agent.key;
});
afterAll(() => t.close());

const send = (key: string, method: string, path: string, body: unknown) =>
  t.app.request(path, { method, headers: jsonHeaders(key), body: JSON.stringify(body) });

/** The answer is a 400 in the envelope naming exactly `field`. */
async function expectRefused(res: Response, field: string): Promise<Body> {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.errors.map((e: Body) => e.code)).toEqual(body.errors.map(() => 'SVC-REQ-400'));
  expect(body.errors.map((e: Body) => e.source?.field)).toContain(field);
  return body;
}

/** Hypervisors named like the hostile names below (`hv…one`): other test files add theirs meanwhile. */
const hypervisorCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('hypervisors')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('name', 'like', 'hv%one')
        .executeTakeFirstOrThrow()
    ).n,
  );

const newHypervisor = (fields: Record<string, unknown> = {}) => ({
  name: `hv-${randomUUID().slice(0, 8)}`,
  location_uuid: locationId,
  cpu_cores: 8,
  memory_mb: 16384,
  disk_mb: 100_000,
  ...fields,
});

const HOSTILE_TEXT = {
  NUL: 'hv\u0000one',
  'a lone high surrogate': 'hv\ud800one',
  'a lone low surrogate': 'hv\udc00one',
  'an escape sequence': 'hv\u001b[2Jone',
  'a line feed': 'hv\none',
  DEL: 'hv\u007fone',
  'a C1 control': 'hv\u0085one',
} as const;

describe('text the database or a hypervisor cannot hold', () => {
  it.each(Object.entries(HOSTILE_TEXT))('is refused in a hypervisor name: %s', async (_, name) => {
    const before = await hypervisorCount();
    await expectRefused(
      await send(appKey, 'POST', '/api/application/cloudsvc/hypervisors', newHypervisor({ name })),
      'name',
    );
    expect(await hypervisorCount()).toBe(before);

    const patched = await send(appKey, 'PATCH', `/api/application/cloudsvc/hypervisors/${hypervisorId}`, {
      name,
    });
    await expectRefused(patched, 'name');
    expect((await findHypervisor(t.db, hypervisorId))?.name).not.toContain('one');
  });

  it('does not refuse Unicode that is well formed', async () => {
    const name = `hyperviseur-été-東京-🚀-${randomUUID().slice(0, 4)}`;
    const res = await send(appKey, 'POST', '/api/application/cloudsvc/hypervisors', newHypervisor({ name }));
    expect(res.status).toBe(201);
    expect((await json(res)).attributes.name).toBe(name);
  });

  it('is refused in the agent version of a heartbeat, which then records nothing', async () => {
    const res = await send(agentKey, 'POST', '/api/cloudsvc/agent/heartbeat', {
      agent_version: '1.0\u0000',
      capabilities: [],
      free: { cpu_cores: 1, memory_mb: 1, disk_mb: 1 },
    });
    await expectRefused(res, 'agent_version');
    expect((await findHypervisor(t.db, hypervisorId))?.last_seen_at).toBeNull();
  });

  it('is refused in an enrollment token and agent version', async () => {
    const res = await t.app.request('/api/cloudsvc/agent/enroll', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: 'cse_\u0000', agent_version: '\ud83d' }),
    });
    const body = await expectRefused(res, 'token');
    expect(body.errors.map((e: Body) => e.source.field)).toContain('agent_version');
  });

  it('is refused in a task failure message, before any task is looked up', async () => {
    const failed = (message: string) =>
      send(agentKey, 'POST', `/api/cloudsvc/agent/tasks/${randomUUID()}/failed`, {
        sequence: 1,
        error: { code: 'DISK_FULL', message },
      });
    await expectRefused(await failed('no space\u0000left'), 'error.message');
    await expectRefused(await failed('half a pair \udfff'), 'error.message');
    // Tabs and line breaks are text; this one is refused only for naming no task of this agent.
    expect((await failed('line one\n\tline two')).status).toBe(404);
  });
});

describe('integers beyond their column', () => {
  it('are refused in a hypervisor’s capacity, at the int4 bound', async () => {
    const before = await hypervisorCount();
    for (const field of ['memory_mb', 'disk_mb']) {
      const res = await send(
        appKey,
        'POST',
        '/api/application/cloudsvc/hypervisors',
        newHypervisor({ [field]: INT4_MAX + 1 }),
      );
      await expectRefused(res, field);
    }
    await expectRefused(
      await send(
        appKey,
        'POST',
        '/api/application/cloudsvc/hypervisors',
        newHypervisor({ memory_mb: 1e300 }),
      ),
      'memory_mb',
    );
    expect(await hypervisorCount()).toBe(before);
    const largest = await send(
      appKey,
      'POST',
      '/api/application/cloudsvc/hypervisors',
      newHypervisor({ memory_mb: INT4_MAX, disk_mb: INT4_MAX }),
    );
    expect(largest.status).toBe(201);
  });

  it('are refused in a heartbeat’s free capacity, which then records nothing', async () => {
    const res = await send(agentKey, 'POST', '/api/cloudsvc/agent/heartbeat', {
      agent_version: '1.0',
      capabilities: [],
      free: { cpu_cores: 1, memory_mb: INT4_MAX + 1, disk_mb: 1 },
    });
    await expectRefused(res, 'free.memory_mb');
    expect((await findHypervisor(t.db, hypervisorId))?.free_memory_mb).toBeNull();
  });

  it('are refused in metric samples: int4 memory, byte counters to 2^53 − 1', async () => {
    const owner = await seed.user(t.db);
    const instance = await seed.instance(t.db, { userId: owner.id, locationId, hypervisorId });
    const sample = (fields: Record<string, unknown>) => ({
      samples: [
        {
          instance_uuid: instance.id,
          sampled_at: new Date().toISOString(),
          cpu_percent: 12.5,
          memory_used_mb: 512,
          disk_read_bytes: 0,
          disk_write_bytes: 0,
          net_rx_bytes: 0,
          net_tx_bytes: 0,
          ...fields,
        },
      ],
    });
    const stored = () =>
      t.db
        .selectFrom('instance_metrics')
        .select('net_rx_bytes')
        .where('instance_id', '=', instance.id)
        .execute();

    await expectRefused(
      await send(agentKey, 'POST', '/api/cloudsvc/agent/metrics', sample({ memory_used_mb: INT4_MAX + 1 })),
      'samples.0.memory_used_mb',
    );
    await expectRefused(
      await send(agentKey, 'POST', '/api/cloudsvc/agent/metrics', sample({ net_rx_bytes: 2 ** 53 })),
      'samples.0.net_rx_bytes',
    );
    expect(await stored()).toEqual([]);

    const largest = await send(
      agentKey,
      'POST',
      '/api/cloudsvc/agent/metrics',
      sample({ net_rx_bytes: Number.MAX_SAFE_INTEGER }),
    );
    expect(largest.status).toBe(202);
    expect(await stored()).toEqual([{ net_rx_bytes: String(Number.MAX_SAFE_INTEGER) }]);
  });

  it('are refused in a page number', async () => {
    const res = await t.app.request(`/api/application/cloudsvc/hypervisors?page=${INT4_MAX + 1}`, {
      headers: bearer(appKey),
    });
    await expectRefused(res, 'page');
  });
});

/** Every string schema of a request: free text must carry the text() pattern; others a format or enum. */
function unconstrainedStrings(schema: Body, components: Body, path: string, found: string[]): void {
  if (!schema || typeof schema !== 'object') return;
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    unconstrainedStrings(components[name], components, path, found);
    return;
  }
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    unconstrainedStrings(branch, components, path, found);
  }
  if (schema.type === 'string' && !schema.format && !schema.enum && schema.const === undefined) {
    if (!schema.pattern) found.push(path);
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    unconstrainedStrings(property, components, `${path}.${name}`, found);
  }
  if (schema.items) unconstrainedStrings(schema.items, components, `${path}[]`, found);
}

describe('every string field of every route', () => {
  it('is free text under the shared rule, or has a format, enum or pattern', async () => {
    const found: string[] = [];
    for (const name of ['client', 'application', 'agent']) {
      const document = await json(await t.app.request(`/openapi/${name}.json`));
      const components = document.components?.schemas ?? {};
      for (const [path, operations] of Object.entries<Body>(document.paths)) {
        for (const [method, operation] of Object.entries<Body>(operations)) {
          for (const parameter of operation.parameters ?? []) {
            unconstrainedStrings(parameter.schema, components, `${method} ${path} ${parameter.name}`, found);
          }
          const body = operation.requestBody?.content?.['application/json']?.schema;
          unconstrainedStrings(body, components, `${method} ${path} body`, found);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
