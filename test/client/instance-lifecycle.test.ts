import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type Body, json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A customer's instance from create to delete through the Client API and a real (in-process)
 * agent: placement, reservations and addresses, the show-once password, rebuild, regeneration,
 * the activity log, tasks and diagnostics.
 */
let env: Stack;
let catalog: Awaited<ReturnType<typeof seed.catalog>>;
let location: { id: string; code: string };
let agent: Awaited<ReturnType<Stack['hypervisorWithAgent']>>['agent'];
let hypervisor: { id: string };

beforeAll(async () => {
  env = await startStack({ agents: true, config: { INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000' } });
  location = await seed.location(env.db);
  await seed.ipPool(env.db, location.id, '198.51.100.0/24', '198.51.100.1');
  await seed.ipPool(env.db, location.id, '2001:db8:100::/64');
  catalog = await seed.catalog(env.db);
  ({ agent, hypervisor } = await env.hypervisorWithAgent({}, { locationId: location.id }));
});
afterAll(() => env.close());

/** A request of the client to the Client API's instances (`path` under /api/client/cloud). */
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  env.client.call(method, `/api/client/cloud${path}`, body, headers);

const createBody = (overrides: Record<string, unknown> = {}) => ({
  hostname: `web-${randomUUID().slice(0, 6)}.example.com`,
  plan: catalog.plan.code,
  image: catalog.image.code,
  location: location.code,
  ...overrides,
});

async function settle(instanceId: string, status: string): Promise<Body> {
  return eventually(
    async () => {
      const res = await api('GET', `/${instanceId}`);
      if (status === 'gone') return res.status === 404 ? true : undefined;
      const body = res.body;
      return body.attributes?.status === status ? body : undefined;
    },
    15_000,
    `instance ${instanceId} to be ${status}`,
  );
}

async function created(overrides: Record<string, unknown> = {}): Promise<Body> {
  const res = await api('POST', '/', createBody(overrides));
  expect(res.status).toBe(202);
  const body = res.body;
  await settle(body.attributes.uuid, 'running');
  return body;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
// The customer's own: other files create instances in the run's shared database at the same time.
const countInstances = async () =>
  Number(
    (
      await env.db
        .selectFrom('instances')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', env.client.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('create', () => {
  it('places, reserves, addresses and provisions the instance; the password is shown once', async () => {
    const res = await api('POST', '/', createBody({ name: 'web-first', timezone: 'Europe/Berlin' }));
    expect(res.status).toBe(202);
    const body = res.body;
    expect(body.attributes).toMatchObject({
      name: 'web-first',
      status: 'provisioning',
      cpu_cores: 1,
      timezone: 'Europe/Berlin',
    });
    expect(body.attributes.primary_ipv4).toMatch(/^198\.51\.100\.\d+$/);
    expect(body.attributes.primary_ipv4).not.toBe('198.51.100.1');
    expect(body.attributes.primary_ipv6).toMatch(/^2001:db8:100::/);
    const id = body.attributes.uuid;
    await settle(id, 'running');

    const reservation = await env.db
      .selectFrom('reservations')
      .select(['hypervisor_id', 'cpu_cores', 'released_at'])
      .where('instance_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(reservation).toMatchObject({ hypervisor_id: hypervisor.id, cpu_cores: 1, released_at: null });

    const shown = await api('GET', `/${id}/settings/password`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    const { password } = shown.body.attributes;
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    // What the hypervisor set is what the customer was shown.
    expect(agent.hypervisor().instances[id]?.root_password_sha256).toBe(sha256(password));
    expect(agent.hypervisor().instances[id]?.timezone).toBe('Europe/Berlin');
    const again = await api('GET', `/${id}/settings/password`);
    expect(again.status).toBe(410);
    expect(again.body.errors[0].code).toBe('SVC-PASSWORD-410');

    // The password is in no workflow history, no task row and no log line in clear.
    const [operation] = await env.db
      .selectFrom('instance_operations')
      .select('workflow_id')
      .where('instance_id', '=', id)
      .execute();
    const history = await env.temporal.workflow.getHandle(operation!.workflow_id).fetchHistory();
    expect(JSON.stringify(history)).not.toContain(password);
    const tasks = await env.db
      .selectFrom('agent_tasks')
      .select('params')
      .where('workflow_id', '=', operation!.workflow_id)
      .execute();
    expect(JSON.stringify(tasks)).not.toContain(password);
    expect(agent.output.join('')).not.toContain(password);
  });

  it('hands the SSH keys chosen at create to the hypervisor (the simulated driver records them)', async () => {
    const publicKey =
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl test@example';
    const key = await api('POST', '/ssh-keys', {
      name: `laptop-${randomUUID().slice(0, 6)}`,
      public_key: publicKey,
    });
    expect(key.status).toBe(201);
    const keyId = key.body.attributes.uuid;
    const body = await created({ ssh_keys: [keyId] });
    expect(agent.hypervisor().instances[body.attributes.uuid]?.ssh_keys).toEqual([publicKey]);
  });

  it('refuses bad input with the field named, and changes nothing', async () => {
    const before = await countInstances();
    const unknownPlan = await api('POST', '/', createBody({ plan: 'no-such-plan' }));
    expect(unknownPlan.status).toBe(400);
    expect(unknownPlan.body.errors[0]).toMatchObject({
      code: 'SVC-REQ-400',
      source: { field: 'plan' },
    });
    const badHostname = await api('POST', '/', createBody({ hostname: '-bad-' }));
    expect(badHostname.status).toBe(400);
    const massAssignment = await api(
      'POST',
      '/',
      createBody({ status: 'running', hypervisor_id: hypervisor.id }),
    );
    expect(massAssignment.status).toBe(400);
    const unknownKey = await api('POST', '/', createBody({ ssh_keys: [randomUUID()] }));
    expect(unknownKey.body.errors[0].source).toEqual({ field: 'ssh_keys' });
    expect(await countInstances()).toBe(before);
  });

  it('orders a plan kept to one location there only: elsewhere 400 naming the plan, twice, and nothing changes', async () => {
    const kept = await seed.catalog(env.db);
    const elsewhere = await seed.location(env.db);
    const moved = await env.admin.call('PATCH', `/api/application/cloudsvc/plans/${kept.plan.id}`, {
      location_uuid: elsewhere.id,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const before = await countInstances();
    for (let round = 0; round < 2; round++) {
      const refused = await api('POST', '/', createBody({ plan: kept.plan.code }));
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400', source: { field: 'plan' } });
      expect(refused.body.errors[0].detail).toContain(location.code);
    }
    expect(await countInstances()).toBe(before);
    // Kept to this location, it is ordered here.
    await env.admin.call('PATCH', `/api/application/cloudsvc/plans/${kept.plan.id}`, {
      location_uuid: location.id,
    });
    const ordered = await api('POST', '/', createBody({ plan: kept.plan.code }));
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(202);
    await settle(ordered.body.attributes.uuid, 'running');
  });

  it('says why no hypervisor fits, and reserves nothing', async () => {
    const big = await seed.catalog(env.db, { cpu_cores: 64 });
    const res = await api('POST', '/', createBody({ plan: big.plan.code }));
    expect(res.status).toBe(409);
    const error = res.body.errors[0];
    expect(error.code).toBe('SVC-PLACEMENT-409');
    expect(error.detail).toContain('1 without the free capacity');
    expect(error.detail).not.toContain(hypervisor.id);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same body, refuses another body with 422', async () => {
    const key = randomUUID();
    const body = createBody();
    const first = await api('POST', '/', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(202);
    const firstBody = first.body;
    const second = await api('POST', '/', body, { 'Idempotency-Key': key });
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(firstBody);
    const other = await api('POST', '/', createBody(), { 'Idempotency-Key': key });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].code).toBe('SVC-IDEMP-422');
    await settle(firstBody.attributes.uuid, 'running');
  });

  it('twenty concurrent creates with one key make exactly one instance and one workflow', async () => {
    const key = randomUUID();
    const body = createBody();
    const before = await countInstances();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', '/', body, { 'Idempotency-Key': key })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 202 && s !== 409)).toEqual([]);
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(1);
    const bodies = await Promise.all(answers.map((r) => r.body));
    const ids = new Set(bodies.filter((b) => b.attributes).map((b) => b.attributes.uuid));
    expect(ids.size).toBe(1);
    for (const refused of bodies.filter((b) => b.errors))
      expect(refused.errors[0].code).toBe('SVC-IDEMP-409');
    expect(await countInstances()).toBe(before + 1);
    const [id] = [...ids];
    const operations = await env.db
      .selectFrom('instance_operations')
      .select('id')
      .where('instance_id', '=', id as string)
      .execute();
    expect(operations).toHaveLength(1);
    await settle(id as string, 'running');
  });
});

describe('concurrent creates', () => {
  it('never share an address and never overbook a hypervisor', async () => {
    const small = await seed.location(env.db);
    await seed.ipPool(env.db, small.id, '203.0.113.0/29', '203.0.113.1');
    const { hypervisor: host } = await env.hypervisorWithAgent({}, { locationId: small.id, cpuCores: 3 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api('POST', '/', createBody({ location: small.code }))),
    );
    const bodies = await Promise.all(answers.map((r) => r.body));
    const accepted = bodies.filter((b) => b.attributes);
    expect(accepted).toHaveLength(3);
    expect(bodies.filter((b) => b.errors).map((b) => b.errors[0].code)).toEqual(
      Array(3).fill('SVC-PLACEMENT-409'),
    );
    const addresses = accepted.map((b) => b.attributes.primary_ipv4);
    expect(new Set(addresses).size).toBe(3);
    const reserved = await env.db
      .selectFrom('reservations')
      .select((eb) => eb.fn.sum<string>('cpu_cores').as('cpu'))
      .where('hypervisor_id', '=', host.id)
      .where('released_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(reserved.cpu)).toBe(3);
    for (const body of accepted) await settle(body.attributes.uuid, 'running');

    // Deleting one gives its room and its address back.
    const victim = accepted[0].attributes;
    expect((await api('DELETE', `/${victim.uuid}`)).status).toBe(202);
    await settle(victim.uuid, 'gone');
    const again = await api('POST', '/', createBody({ location: small.code }));
    expect(again.status).toBe(202);
    expect(again.body.attributes.primary_ipv4).toBe(victim.primary_ipv4);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After and RateLimit headers beyond the per-user limit', async () => {
    const limited = await startStack({
      agents: true,
      config: { INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '2' },
    });
    try {
      const call = (body: unknown) =>
        fetch(`${limited.url}/api/client/cloud/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${limited.client.key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      // A location without hypervisors: each create counts, then is refused by placement.
      const empty = await seed.location(limited.db);
      const first = await call(createBody({ location: empty.code }));
      expect(first.status).toBe(409);
      expect(first.headers.get('ratelimit')).toMatch(/^"instance-create";r=1;t=\d+$/);
      expect(first.headers.get('ratelimit-policy')).toBe('"instance-create";q=2;w=60');
      await call(createBody({ location: empty.code }));
      const third = await call(createBody({ location: empty.code }));
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await json(third)).errors[0].code).toBe('SVC-REQ-429');
    } finally {
      await limited.close();
    }
  });
});

describe('delete', () => {
  it('removes the instance from its hypervisor, releases everything, and is gone after', async () => {
    const body = await created();
    const id = body.attributes.uuid;
    const res = await api('DELETE', `/${id}`);
    expect(res.status).toBe(202);
    expect(res.body.attributes.status).toBe('deleting');
    await settle(id, 'gone');
    expect(agent.hypervisor().instances[id]).toBeUndefined();
    const reservation = await env.db
      .selectFrom('reservations')
      .select('released_at')
      .where('instance_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(reservation.released_at).not.toBeNull();
    expect(
      await env.db.selectFrom('ip_addresses').select('address').where('instance_id', '=', id).execute(),
    ).toEqual([]);
    expect((await api('DELETE', `/${id}`)).status).toBe(404);
    const list = (await api('GET', '/?per_page=100')).body;
    expect(list.data.map((i: Body) => i.attributes.uuid)).not.toContain(id);
  });

  it('two deletes at once: one is accepted, the other gets SVC-OP-409', async () => {
    const body = await created();
    const answers = await Promise.all([
      api('DELETE', `/${body.attributes.uuid}`),
      api('DELETE', `/${body.attributes.uuid}`),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    await settle(body.attributes.uuid, 'gone');
  });

  it('is refused under a migration lease with INSTANCE_MIGRATING', async () => {
    const body = await created();
    await env.db
      .insertInto('move_leases')
      .values({
        instance_id: body.attributes.uuid,
        move_id: randomUUID(),
        holder: 'test',
        expires_at: new Date(Date.now() + 60_000),
      })
      .execute();
    const res = await api('DELETE', `/${body.attributes.uuid}`);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].code).toBe('INSTANCE_MIGRATING');
  });
});

describe('rebuild and password', () => {
  it('rebuilds twice in a row, each time with a new password shown once', async () => {
    const body = await created();
    const id = body.attributes.uuid;
    for (const round of [1, 2]) {
      const res = await api('POST', `/${id}/rebuild`, {});
      expect(res.status, `rebuild ${round}`).toBe(202);
      expect(res.body.attributes.status).toBe('rebuilding');
      await settle(id, 'running');
      const shown = await api('GET', `/${id}/settings/password`);
      expect(shown.status).toBe(200);
      const { password } = shown.body.attributes;
      expect(agent.hypervisor().instances[id]?.root_password_sha256).toBe(sha256(password));
      expect(agent.hypervisor().instances[id]?.disk_generation).toBe(1 + round);
    }
    const both = await Promise.all([api('POST', `/${id}/rebuild`, {}), api('POST', `/${id}/rebuild`, {})]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    await settle(id, 'running');
  });

  it('regenerates the password through the hypervisor, twice in a row', async () => {
    const body = await created();
    const id = body.attributes.uuid;
    const seen = new Set<string>();
    for (const round of [1, 2]) {
      const res = await api('POST', `/${id}/settings/password`);
      expect(res.status, `regeneration ${round}`).toBe(202);
      expect(res.body.attributes.status).toBe('running');
      const password = await eventually(
        async () => {
          const shown = await api('GET', `/${id}/settings/password`);
          return shown.status === 200 ? shown.body.attributes.password : undefined;
        },
        10_000,
        'the new password',
      );
      expect(agent.hypervisor().instances[id]?.root_password_sha256).toBe(sha256(password));
      seen.add(password);
      await eventually(
        async () => (await api('GET', `/${id}/diagnostics`)).body.attributes.pending_operation === null,
        10_000,
        'the regeneration to settle',
      );
    }
    expect(seen.size).toBe(2);
  });
});

describe('activity, tasks and diagnostics', () => {
  it('record each action with who asked, the request id and the outcome', async () => {
    const body = await created();
    const id = body.attributes.uuid;
    const requestId = `req-${randomUUID()}`;
    expect(
      (await api('POST', `/${id}/power`, { action: 'stop' }, { 'X-Request-Id': requestId })).status,
    ).toBe(202);
    await settle(id, 'stopped');

    const activity = (await api('GET', `/${id}/activity`)).body;
    const stop = activity.data
      .filter((a: Body) => a.attributes.request_id === requestId)
      .map((a: Body) => a.attributes);
    expect(stop).toEqual([
      expect.objectContaining({ event: 'instance.stop.completed', actor: 'system', status: 'stopped' }),
      expect.objectContaining({ event: 'instance.stop.requested', actor: 'customer' }),
    ]);
    const tasks = (await api('GET', `/${id}/tasks`)).body;
    expect(tasks.data.map((t: Body) => [t.attributes.operation, t.attributes.state])).toEqual([
      ['stop', 'succeeded'],
      ['provision', 'succeeded'],
    ]);
    expect(tasks.meta.pagination.total).toBe(2);
    // Read on by cursor: the same rows as the numbered pages, one at a time.
    const first = (await api('GET', `/${id}/activity?per_page=1`)).body;
    const byCursor = [...first.data];
    for (let next = first.meta.cursor.next; next; ) {
      const page = (await api('GET', `/${id}/activity?per_page=1&cursor=${next}`)).body;
      byCursor.push(...page.data);
      next = page.meta.cursor.next;
    }
    expect(byCursor).toEqual(activity.data);
    const firstTask = (await api('GET', `/${id}/tasks?per_page=1`)).body;
    const secondTask = (await api('GET', `/${id}/tasks?per_page=1&cursor=${firstTask.meta.cursor.next}`))
      .body;
    expect(secondTask.data).toEqual([tasks.data[1]]);
    expect(secondTask.meta).toEqual({ cursor: { next: null } });

    const diagnostics = (await api('GET', `/${id}/diagnostics`)).body.attributes;
    expect(diagnostics).toMatchObject({
      status: 'stopped',
      agent_reachable: true,
      migrating: false,
      pending_operation: null,
      last_error: null,
    });
  });

  it('show a failure with a customer-safe message only', async () => {
    const body = await created();
    const id = body.attributes.uuid;
    agent.armFault('instance.power', { mode: 'fail-permanently' });
    expect((await api('POST', `/${id}/power`, { action: 'restart' })).status).toBe(202);
    const diagnostics = await eventually(
      async () => {
        const d = (await api('GET', `/${id}/diagnostics`)).body.attributes;
        return d.last_error ? d : undefined;
      },
      10_000,
      'the failure',
    );
    expect(diagnostics.last_error).toEqual({
      operation: 'restart',
      code: 'OPERATION_FAILED',
      message: 'The hypervisor could not complete the operation.',
      at: expect.any(String),
    });
    const tasks = (await api('GET', `/${id}/tasks`)).body;
    expect(tasks.data[0].attributes).toMatchObject({ operation: 'restart', state: 'failed' });
    expect(JSON.stringify(tasks)).not.toMatch(/simulated|hypervisor_id/i);
  });
});

describe('a provisioning that fails', () => {
  it('rolls back on the hypervisor, releases capacity and addresses, and leaves an instance to delete', async () => {
    agent.armFault('instance.create', { mode: 'fail-permanently' });
    const res = await api('POST', '/', createBody());
    const id = res.body.attributes.uuid;
    await settle(id, 'error');
    await eventually(
      async () =>
        (
          await env.db
            .selectFrom('reservations')
            .select('released_at')
            .where('instance_id', '=', id)
            .executeTakeFirstOrThrow()
        ).released_at !== null,
      10_000,
      'the reservation to be released',
    );
    expect(
      await env.db.selectFrom('ip_addresses').select('address').where('instance_id', '=', id).execute(),
    ).toEqual([]);
    expect(agent.hypervisor().instances[id]).toBeUndefined();
    expect((await api('DELETE', `/${id}`)).status).toBe(202);
    await settle(id, 'gone');
  });
});
