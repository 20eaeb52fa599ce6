import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_DATA_MAX_BYTES } from '../../domain/instances/user-data.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A customer's user-data (docs/api.md "User-data") through the Client and Application APIs and a
 * real agent with the simulated hypervisor: taken at create and rebuild, kept sealed, shown only as
 * its kind, size and hash, given to the hypervisor; refused bad, with nothing made or changed.
 * The guest's side (cloud-init running it, the panel's data winning) is in test/qemu/debian-guest.test.ts.
 */
let env: Stack;
let catalog: Awaited<ReturnType<typeof seed.catalog>>;
let location: { id: string; code: string };
let agent: Awaited<ReturnType<Stack['hypervisorWithAgent']>>['agent'];

beforeAll(async () => {
  env = await startStack({ agents: true, config: { INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000' } });
  location = await seed.location(env.db);
  await seed.ipPool(env.db, location.id, '198.51.102.0/24', '198.51.102.1');
  catalog = await seed.catalog(env.db);
  ({ agent } = await env.hypervisorWithAgent({}, { locationId: location.id }));
});
afterAll(() => env.close());

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  env.client.call(method, `/api/client/cloud${path}`, body, headers);

const b64 = (text: string) => Buffer.from(text).toString('base64');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const CONFIG =
  '#cloud-config\nwrite_files:\n  - path: /etc/cloudsvc-hello\n    content: "hello from the customer"\n';
const SCRIPT = '#!/bin/sh\necho "rebuilt by the customer" > /etc/cloudsvc-hello\n';
const summary = (text: string, kind: string) => ({
  present: true,
  kind,
  bytes: Buffer.byteLength(text),
  sha256: sha256(text),
});

const createBody = (overrides: Record<string, unknown> = {}) => ({
  hostname: `ud-${randomUUID().slice(0, 6)}.example.com`,
  plan: catalog.plan.code,
  image: catalog.image.code,
  location: location.code,
  ...overrides,
});

const settled = (id: string, status: string) =>
  eventually(
    async () => {
      const res = await api('GET', `/${id}`);
      return res.body.attributes?.status === status ? (res.body as Body) : undefined;
    },
    20_000,
    `instance ${id} ${status}`,
  );

/** What the simulated hypervisor was given with the guest: the kind and the hash of the text, never the text. */
const onHypervisor = (id: string) => agent.hypervisor().instances[id]?.user_data;

async function stored(id: string) {
  return env.db
    .selectFrom('instance_user_data')
    .select('sealed')
    .where('instance_id', '=', id)
    .executeTakeFirst();
}

async function createdWith(text: string): Promise<string> {
  const res = await api('POST', '/', createBody({ user_data: b64(text) }));
  expect(res.status).toBe(202);
  const id = res.body.attributes.uuid as string;
  await settled(id, 'running');
  return id;
}

const countOwnInstances = async () =>
  Number(
    (
      await env.db
        .selectFrom('instances')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', env.client.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('create with user-data', () => {
  it('gives it to the hypervisor, keeps it sealed and shows only its kind, size and SHA-256', async () => {
    const res = await api('POST', '/', createBody({ user_data: b64(CONFIG) }));
    expect(res.status).toBe(202);
    expect(res.body.attributes.user_data).toEqual(summary(CONFIG, 'cloud-config'));
    const id = res.body.attributes.uuid as string;
    const shown = await settled(id, 'running');
    expect(shown.attributes.user_data).toEqual(summary(CONFIG, 'cloud-config'));
    expect(onHypervisor(id)).toEqual({ kind: 'cloud-config', sha256: sha256(CONFIG) });

    // Sealed at rest, in the workflow's history and in the task row; never in an answer or event.
    const sealed = (await stored(id))?.sealed;
    expect(sealed).toMatch(/^sealed:v1:/);
    const [operation] = await env.db
      .selectFrom('instance_operations')
      .select('workflow_id')
      .where('instance_id', '=', id)
      .execute();
    const history = JSON.stringify(
      await env.temporal.workflow.getHandle(operation!.workflow_id).fetchHistory(),
    );
    const tasks = JSON.stringify(
      await env.db
        .selectFrom('agent_tasks')
        .select('params')
        .where('workflow_id', '=', operation!.workflow_id)
        .execute(),
    );
    const events = JSON.stringify(
      await env.db.selectFrom('outbox_events').select('data').where('resource_id', '=', id).execute(),
    );
    for (const place of [history, tasks, events, JSON.stringify(shown)]) {
      expect(place).not.toContain('hello from the customer');
      expect(place).not.toContain(b64(CONFIG));
    }
    expect(tasks).toContain('sealed:v1:');
    expect(events).toContain(sha256(CONFIG));
  });

  it('is the customer’s choice: without it the instance has none, and so has its guest', async () => {
    const res = await api('POST', '/', createBody());
    expect(res.status).toBe(202);
    expect(res.body.attributes.user_data).toBeNull();
    const id = res.body.attributes.uuid as string;
    await settled(id, 'running');
    expect(onHypervisor(id)).toBeUndefined();
    expect(await stored(id)).toBeUndefined();
  });

  it('refuses user-data that is not base64, empty, past the bound, neither kind or bad YAML: 400 naming it, nothing made', async () => {
    const before = await countOwnInstances();
    const bad = [
      ['#cloud-config\nhostname: x\n', /base64/],
      ['', /empty/],
      [b64(`#!/bin/sh\n${'#'.repeat(USER_DATA_MAX_BYTES)}`), /at most 32768/],
      [b64('echo hi\n'), /cloud-config.*script/],
      [b64('#cloud-config\nruncmd: [\n'), /YAML/],
      [b64('#cloud-config\n- a\n'), /mapping/],
    ] as const;
    for (const [userData, detail] of bad) {
      const res = await api('POST', '/', createBody({ user_data: userData }));
      expect(res.status).toBe(400);
      expect(res.body.errors[0].code).toBe('SVC-REQ-400');
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].source).toEqual({ field: 'user_data' });
      expect(res.body.errors[0].detail).toMatch(detail);
      expect(JSON.stringify(res.body)).not.toContain('hostname: x');
    }
    const tooLong = await api('POST', '/', createBody({ user_data: 'A'.repeat(45_004) }));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].source).toEqual({ field: 'user_data' });
    expect(await countOwnInstances()).toBe(before);
  });

  it('is taken twice alike, and by two creates at once, each instance with its own', async () => {
    const key = `ud-${randomUUID()}`;
    const body = createBody({ user_data: b64(CONFIG) });
    const first = await api('POST', '/', body, { 'Idempotency-Key': key });
    const again = await api('POST', '/', body, { 'Idempotency-Key': key });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.attributes).toEqual(first.body.attributes);

    const texts = [`${CONFIG}# one\n`, '#!/bin/sh\necho two\n'];
    const ids = await Promise.all(texts.map(createdWith));
    expect(new Set(ids).size).toBe(2);
    expect(onHypervisor(ids[0]!)).toEqual({ kind: 'cloud-config', sha256: sha256(texts[0]!) });
    expect(onHypervisor(ids[1]!)).toEqual({ kind: 'script', sha256: sha256(texts[1]!) });
  });

  it('is taken by the Application API’s create for a user, shown as the customer sees it', async () => {
    const res = await env.call(env.admin, 'POST', '/api/application/cloudsvc/instances', {
      user: env.client.id,
      ...createBody({ user_data: b64(SCRIPT) }),
    });
    expect(res.status).toBe(202);
    expect(res.body.attributes.user_data).toEqual(summary(SCRIPT, 'script'));
    const id = res.body.attributes.uuid as string;
    await settled(id, 'running');
    expect(onHypervisor(id)).toEqual({ kind: 'script', sha256: sha256(SCRIPT) });
    const placed = await env.call(env.admin, 'GET', `/api/application/cloudsvc/instances/${id}`);
    expect(placed.body.attributes.user_data).toEqual(summary(SCRIPT, 'script'));
    const refused = await env.call(env.admin, 'POST', '/api/application/cloudsvc/instances', {
      user: env.client.id,
      ...createBody({ user_data: b64('plain text\n') }),
    });
    expect(refused.status).toBe(400);
  });
});

describe('rebuild and user-data', () => {
  const rebuild = async (id: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/${id}/rebuild`, body);
    if (res.status === 202) await env.operationResult(id);
    return res;
  };

  it('replaces it when given, keeps it when absent, removes it on null', async () => {
    const id = await createdWith(CONFIG);
    const replaced = await rebuild(id, { user_data: b64(SCRIPT) });
    expect(replaced.status).toBe(202);
    expect(replaced.body.attributes.user_data).toEqual(summary(SCRIPT, 'script'));
    expect(onHypervisor(id)).toEqual({ kind: 'script', sha256: sha256(SCRIPT) });

    // Absent: the rebuilt guest is given the one kept.
    const rebuildsBefore = agent.hypervisor().instances[id]!.disk_generation;
    expect((await rebuild(id, {})).status).toBe(202);
    expect(agent.hypervisor().instances[id]!.disk_generation).toBe(rebuildsBefore + 1);
    expect(onHypervisor(id)).toEqual({ kind: 'script', sha256: sha256(SCRIPT) });
    expect((await api('GET', `/${id}`)).body.attributes.user_data).toEqual(summary(SCRIPT, 'script'));

    const removed = await rebuild(id, { user_data: null });
    expect(removed.body.attributes.user_data).toBeNull();
    expect(onHypervisor(id)).toBeUndefined();
    expect(await stored(id)).toBeUndefined();
    expect((await api('GET', `/${id}`)).body.attributes.user_data).toBeNull();
  });

  it('refuses a bad one with 400 and changes nothing: no rebuild, the stored one kept', async () => {
    const id = await createdWith(CONFIG);
    const sealed = (await stored(id))?.sealed;
    const operations = (
      await env.db.selectFrom('instance_operations').select('id').where('instance_id', '=', id).execute()
    ).length;
    const res = await api('POST', `/${id}/rebuild`, { user_data: b64('not a script\n') });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ field: 'user_data' });
    expect((await stored(id))?.sealed).toBe(sealed);
    const after = await api('GET', `/${id}`);
    expect(after.body.attributes).toMatchObject({
      status: 'running',
      user_data: summary(CONFIG, 'cloud-config'),
    });
    expect(
      (await env.db.selectFrom('instance_operations').select('id').where('instance_id', '=', id).execute())
        .length,
    ).toBe(operations);
    // Another customer's instance is not found, whatever the body.
    const foreign = await env.stranger.call('POST', `/api/client/cloud/${id}/rebuild`, {
      user_data: b64(SCRIPT),
    });
    expect(foreign.status).toBe(404);
    expect((await stored(id))?.sealed).toBe(sealed);
  });

  it('takes the same user-data twice alike; of two rebuilds at once one runs, and its user-data is the one kept', async () => {
    const id = await createdWith(CONFIG);
    for (let i = 0; i < 2; i++) {
      expect((await rebuild(id, { user_data: b64(SCRIPT) })).status).toBe(202);
      expect(onHypervisor(id)).toEqual({ kind: 'script', sha256: sha256(SCRIPT) });
    }
    const texts = ['#!/bin/sh\necho left\n', '#!/bin/sh\necho right\n'];
    const answers = await Promise.all(texts.map((t) => api('POST', `/${id}/rebuild`, { user_data: b64(t) })));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const won = texts[answers.findIndex((a) => a.status === 202)]!;
    await env.operationResult(id);
    await settled(id, 'running');
    expect(onHypervisor(id)).toEqual({ kind: 'script', sha256: sha256(won) });
    expect((await api('GET', `/${id}`)).body.attributes.user_data).toEqual(summary(won, 'script'));
  });

  it('goes with the instance: deleted, its sealed user-data is gone', async () => {
    const id = await createdWith(SCRIPT);
    expect((await api('DELETE', `/${id}`)).status).toBe(202);
    await env.operationResult(id);
    expect(await stored(id)).toBeUndefined();
  });
});
