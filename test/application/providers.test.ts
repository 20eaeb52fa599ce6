import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { type ProviderServer, startProviderServer } from '../support/provider-server.js';
import { expectDeletedOnce, expectFieldRefusals, statusesOf } from '../support/refusals.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Providers through the Application API, with a real worker and a provider that is a real HTTP
 * service on this machine (http:// allowed, as `PROVIDER_ALLOW_HTTP` does for a private network).
 */
let t: Stack;
let provider: ProviderServer;
beforeAll(async () => {
  t = await startStack({ worker: true, config: { PROVIDER_ALLOW_HTTP: 'true' } });
  provider = await startProviderServer();
});
afterAll(async () => {
  await provider?.close();
  await t?.close();
});

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

async function newProvider(overrides: Record<string, unknown> = {}) {
  const created = await admin('POST', '/providers', {
    name: `storage-${randomUUID().slice(0, 8)}`,
    kind: 'storage',
    endpoint: provider.url,
    ...overrides,
  });
  expect(created.status).toBe(201);
  return created.body.attributes as Body;
}

/** A run begun through `path`, and the run once it has finished. */
async function finishedRun(providerId: string, path: string, body?: unknown) {
  const begun = await admin('POST', `/providers/${providerId}${path}`, body);
  expect(begun.status).toBe(202);
  const runId = begun.body.attributes.uuid;
  return eventually(async () => {
    const run = (await admin('GET', `/providers/${providerId}/runs/${runId}`)).body.attributes;
    return run.status !== 'running' && run;
  });
}

const secret = () => `canary-${randomUUID()}`;

describe('providers of the Application API', () => {
  it('are created, shown, listed by kind, renamed and given a new endpoint; the kind stays', async () => {
    const made = await newProvider({ kind: 'ipam' });
    expect(made).toMatchObject({ kind: 'ipam', endpoint: provider.url, credential_set: false });
    expect(made.credential_rotated_at).toBeNull();
    expect((await admin('GET', `/providers/${made.uuid}`)).body.attributes).toEqual(made);
    const ipam = (await admin('GET', '/providers?kind=ipam&per_page=100')).body.data.map(
      (d: Body) => d.attributes.uuid,
    );
    expect(ipam).toContain(made.uuid);
    const dns = (await admin('GET', '/providers?kind=dns&per_page=100')).body.data.map(
      (d: Body) => d.attributes.uuid,
    );
    expect(dns).not.toContain(made.uuid);

    const changed = await admin('PATCH', `/providers/${made.uuid}`, {
      name: `${made.name}-b`,
      endpoint: 'https://ipam.example.net/v2',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.attributes).toMatchObject({
      name: `${made.name}-b`,
      endpoint: 'https://ipam.example.net/v2',
      kind: 'ipam',
    });
    expect((await admin('PATCH', `/providers/${made.uuid}`, { kind: 'dns' })).status).toBe(400);
  });

  it('refuse a bad name, kind or endpoint, and a name taken, changing nothing', async () => {
    const made = await newProvider();
    const create = (body: Record<string, unknown>) =>
      admin('POST', '/providers', {
        name: `p-${randomUUID()}`,
        kind: 'dns',
        endpoint: provider.url,
        ...body,
      });
    await expectFieldRefusals(create, [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ kind: 'compute' }, 'kind'],
      [{ endpoint: 'not a url' }, 'endpoint'],
      [{ endpoint: 'ftp://files.example.net/' }, 'endpoint'],
      [{ endpoint: 'https://user:pass@example.net/' }, 'endpoint'],
      [{ endpoint: 'https://example.net/api?token=abc' }, 'endpoint'],
      [{ endpoint: 'https://example.net/api#x' }, 'endpoint'],
      [{ endpoint: `https://example.net/${'a'.repeat(2048)}` }, 'endpoint'],
      [{ credential: 'x' }, 'credential'],
    ]);
    const taken = await admin('POST', '/providers', { name: made.name, kind: 'dns', endpoint: provider.url });
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0].code).toBe('SVC-CONFLICT-409');
    const edit = (body: Record<string, unknown>) => admin('PATCH', `/providers/${made.uuid}`, body);
    await expectFieldRefusals(edit, [
      [{ endpoint: 'https://user@example.net/' }, 'endpoint'],
      [{ name: 'a\u0000b' }, 'name'],
    ]);
    expect((await admin('GET', `/providers/${made.uuid}`)).body.attributes).toEqual(made);
  });

  it('refuse a second provider of one name, also when two are created at once', async () => {
    const body = { name: `twin-${randomUUID().slice(0, 8)}`, kind: 'dns', endpoint: provider.url };
    const both = await Promise.all([admin('POST', '/providers', body), admin('POST', '/providers', body)]);
    expect(statusesOf(both)).toEqual([201, 409]);
    const named = await t.db.selectFrom('providers').select('id').where('name', '=', body.name).execute();
    expect(named).toHaveLength(1);
  });

  it('refuse https-less endpoints unless plain HTTP is allowed', async () => {
    const strict = await startStack({ config: { PROVIDER_ALLOW_HTTP: 'false' } });
    try {
      const refused = await strict.call(strict.admin, 'POST', '/api/application/cloudsvc/providers', {
        name: `p-${randomUUID()}`,
        kind: 'dns',
        endpoint: 'http://dns.example.net/',
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({
        source: { field: 'endpoint' },
        detail: 'Must be an https:// URL.',
      });
    } finally {
      await strict.close();
    }
  });

  it('take a credential on its own endpoint and never show it; setting it again moves the time', async () => {
    const made = await newProvider();
    const credential = secret();
    const set = await admin('PUT', `/providers/${made.uuid}/credential`, { credential });
    expect(set.status).toBe(200);
    expect(set.body.attributes).toMatchObject({ credential_set: true });
    expect(JSON.stringify(set.body)).not.toContain(credential);
    const stored = await t.db
      .selectFrom('providers')
      .select('credential_sealed')
      .where('id', '=', made.uuid)
      .executeTakeFirstOrThrow();
    expect(stored.credential_sealed).toMatch(/^sealed:v1:/);
    expect(stored.credential_sealed).not.toContain(credential);

    const again = await admin('PUT', `/providers/${made.uuid}/credential`, { credential: secret() });
    expect(Date.parse(again.body.attributes.credential_rotated_at)).toBeGreaterThanOrEqual(
      Date.parse(set.body.attributes.credential_rotated_at),
    );
    expect((await admin('PUT', `/providers/${made.uuid}/credential`, {})).status).toBe(400);
    expect((await admin('PUT', `/providers/${randomUUID()}/credential`, { credential })).status).toBe(404);
  });

  it('are tested with their credential: ok, unauthorized, unreachable, or nothing to present', async () => {
    const made = await newProvider();
    expect(await finishedRun(made.uuid, '/test')).toMatchObject({
      kind: 'test',
      status: 'failed',
      result: 'no_credential',
    });
    const credential = secret();
    provider.accepted.add(credential);
    await admin('PUT', `/providers/${made.uuid}/credential`, { credential });
    const ok = await finishedRun(made.uuid, '/test');
    expect(ok).toMatchObject({ status: 'succeeded', result: 'ok', http_status: 200, items: null });
    expect(ok.latency_ms).toBeGreaterThanOrEqual(0);
    expect(provider.received.at(-1)).toBe(credential);

    provider.accepted.delete(credential);
    expect(await finishedRun(made.uuid, '/test')).toMatchObject({ result: 'unauthorized', http_status: 401 });

    const closed = await startProviderServer();
    await closed.close();
    await admin('PATCH', `/providers/${made.uuid}`, { endpoint: closed.url });
    expect(await finishedRun(made.uuid, '/test')).toMatchObject({ result: 'unreachable', http_status: null });

    const runs = (await admin('GET', `/providers/${made.uuid}/runs`)).body;
    expect(runs.meta.pagination.total).toBe(4);
    expect(runs.data.map((d: Body) => d.attributes.result)).toEqual([
      'unreachable',
      'unauthorized',
      'ok',
      'no_credential',
    ]);
  });

  it('are synced: the inventory is counted', async () => {
    const made = await newProvider();
    const credential = secret();
    provider.accepted.add(credential);
    await admin('PUT', `/providers/${made.uuid}/credential`, { credential });
    provider.inventory = 7;
    expect(await finishedRun(made.uuid, '/sync')).toMatchObject({ kind: 'sync', result: 'ok', items: 7 });
  });

  it('join a test asked for twice at once, and run a new one once it has finished', async () => {
    const made = await newProvider();
    const credential = secret();
    provider.accepted.add(credential);
    await admin('PUT', `/providers/${made.uuid}/credential`, { credential });
    provider.delayMs = 500;
    try {
      const both = await Promise.all([
        admin('POST', `/providers/${made.uuid}/test`),
        admin('POST', `/providers/${made.uuid}/test`),
      ]);
      expect(statusesOf(both)).toEqual([202, 202]);
      expect(both[0].body.attributes.uuid).toBe(both[1].body.attributes.uuid);
    } finally {
      provider.delayMs = 0;
    }
    const first = (await admin('GET', `/providers/${made.uuid}/runs`)).body.data[0].attributes;
    await eventually(
      async () =>
        (await admin('GET', `/providers/${made.uuid}/runs/${first.uuid}`)).body.attributes.status ===
        'succeeded',
    );
    const second = await finishedRun(made.uuid, '/test');
    expect(second.uuid).not.toBe(first.uuid);
    expect((await admin('GET', `/providers/${made.uuid}/runs`)).body.meta.pagination.total).toBe(2);
  });

  it('rotate a credential only when the provider accepts the new one', async () => {
    const made = await newProvider();
    const old = secret();
    provider.accepted.add(old);
    const before = (await admin('PUT', `/providers/${made.uuid}/credential`, { credential: old })).body
      .attributes;

    const refused = await finishedRun(made.uuid, '/credential/rotate', { credential: secret() });
    expect(refused).toMatchObject({ kind: 'rotate', status: 'failed', result: 'unauthorized' });
    expect((await admin('GET', `/providers/${made.uuid}`)).body.attributes).toEqual(before);
    expect(await finishedRun(made.uuid, '/test')).toMatchObject({ result: 'ok' });
    expect(provider.received.at(-1)).toBe(old);

    const next = secret();
    provider.accepted.add(next);
    expect(await finishedRun(made.uuid, '/credential/rotate', { credential: next })).toMatchObject({
      status: 'succeeded',
      result: 'ok',
    });
    const after = (await admin('GET', `/providers/${made.uuid}`)).body.attributes;
    expect(Date.parse(after.credential_rotated_at)).toBeGreaterThan(Date.parse(before.credential_rotated_at));
    provider.accepted.delete(old);
    expect(await finishedRun(made.uuid, '/test')).toMatchObject({ result: 'ok' });
    expect(provider.received.at(-1)).toBe(next);
    const candidates = await t.db
      .selectFrom('provider_runs')
      .select('candidate_sealed')
      .where('provider_id', '=', made.uuid)
      .execute();
    expect(candidates.every((r) => r.candidate_sealed === null)).toBe(true);
  });

  it('refuse a second rotation while one runs; the first still settles', async () => {
    const made = await newProvider();
    // Either may come first: the provider accepts both.
    const candidates = [secret(), secret()];
    for (const candidate of candidates) provider.accepted.add(candidate);
    provider.delayMs = 500;
    try {
      const both = await Promise.all(
        candidates.map((credential) =>
          admin('POST', `/providers/${made.uuid}/credential/rotate`, { credential }),
        ),
      );
      expect(statusesOf(both)).toEqual([202, 409]);
      expect(both.find((r) => r.status === 409)?.body.errors[0].code).toBe('SVC-OP-409');
    } finally {
      provider.delayMs = 0;
    }
    await eventually(
      async () => (await admin('GET', `/providers/${made.uuid}`)).body.attributes.credential_set,
    );
  });

  it('are deleted with their runs, but not while a run is under way', async () => {
    const made = await newProvider();
    const credential = secret();
    provider.accepted.add(credential);
    await admin('PUT', `/providers/${made.uuid}/credential`, { credential });
    provider.delayMs = 1_500;
    try {
      const begun = await admin('POST', `/providers/${made.uuid}/test`);
      expect(begun.status).toBe(202);
      const held = await admin('DELETE', `/providers/${made.uuid}`);
      expect(held.status).toBe(409);
      expect(held.body.errors[0]).toMatchObject({
        code: 'SVC-INUSE-409',
        detail: 'The provider has 1 running check.',
      });
      await eventually(
        async () =>
          (await admin('GET', `/providers/${made.uuid}/runs/${begun.body.attributes.uuid}`)).body.attributes
            .status === 'succeeded',
      );
    } finally {
      provider.delayMs = 0;
    }
    await expectDeletedOnce(admin, `/providers/${made.uuid}`);
    const runs = await t.db
      .selectFrom('provider_runs')
      .select('id')
      .where('provider_id', '=', made.uuid)
      .execute();
    expect(runs).toEqual([]);
    expect((await admin('POST', `/providers/${made.uuid}/test`)).status).toBe(404);
  });

  it('are an administrator’s: no key is 401, a client key 403', async () => {
    const made = await newProvider();
    for (const [method, path] of [
      ['GET', '/providers'],
      ['GET', `/providers/${made.uuid}`],
      ['PUT', `/providers/${made.uuid}/credential`],
      ['POST', `/providers/${made.uuid}/test`],
    ] as const) {
      const full = `/api/application/cloudsvc${path}`;
      const body = method === 'GET' ? undefined : { credential: 'x' };
      expect((await t.call(null, method, full, body)).status).toBe(401);
      expect((await t.call(t.client, method, full, body)).status).toBe(403);
    }
    expect((await admin('GET', `/providers/${made.uuid}`)).body.attributes.credential_set).toBe(false);
  });
});
