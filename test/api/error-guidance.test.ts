import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperationsOfInstance } from '../../db/repositories/instances/instance-operation-reads.js';
import { OPERATION_CONFLICT_RETRY_AFTER_SECONDS } from '../../domain/errors.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Each refusal says what to do (docs/api.md "Errors"): which field, which key type, when to try
 * again; and a refusal changes nothing.
 */
let t: Stack;
let location: { id: string; code: string };

beforeAll(async () => {
  t = await startStack();
  location = await seed.location(t.db);
});
afterAll(() => t.close());

const API = '/api/client/cloud';

describe('a refused field', () => {
  it('is named in the detail and in source.field, in words about the request, not the parser', async () => {
    const refused = await t.call(t.client, 'POST', `${API}/ssh-keys`, { name: 5 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        {
          code: 'SVC-REQ-400',
          status: 400,
          detail: 'public_key: Required (a string).',
          source: { field: 'public_key' },
        },
        {
          code: 'SVC-REQ-400',
          status: 400,
          detail: 'name: Must be a string, not a number.',
          source: { field: 'name' },
        },
      ]),
    );
    expect(JSON.stringify(refused.body)).not.toMatch(/Invalid input|received undefined/);
    const keys = await t.call(t.client, 'GET', `${API}/ssh-keys`);
    expect(keys.body.data).toEqual([]);
  });

  it('names the bound it broke and the values it may take', async () => {
    const page = await t.call(t.client, 'GET', `${API}?per_page=1000`);
    expect(page.body.errors[0]).toMatchObject({
      detail: 'per_page: Must be at most 100.',
      source: { field: 'per_page' },
    });
    const instance = await placedInstance();
    const power = await t.call(t.client, 'POST', `${API}/${instance.id}/power`, { action: 'jump' });
    expect(power.body.errors[0]).toMatchObject({
      detail: 'action: Must be one of "start", "stop", "restart", "kill".',
      source: { field: 'action' },
    });
    expect(await listOperationsOfInstance(t.db, instance.id, 5)).toEqual([]);
  });
});

describe('a credential of another type', () => {
  it('is told which type the API takes, and which it sent', async () => {
    const onApplication = await t.call(t.client, 'GET', '/api/application/cloudsvc/users');
    expect(onApplication.status).toBe(403);
    expect(onApplication.body.errors[0]).toMatchObject({
      code: 'SVC-AUTH-403',
      detail: 'This API takes an application key (csa_…); this is a client key (csc_…).',
    });
    const onClient = await t.call(t.admin, 'GET', API);
    expect(onClient.body.errors[0].detail).toBe(
      'This API takes a client key (csc_…); this is an application key (csa_…).',
    );
  });
});

describe('a resource named in the body', () => {
  it('unknown or another customer’s, is the one 404 naming the field, and nothing changes', async () => {
    const volume = await t.call(t.client, 'POST', `${API}/volumes`, {
      name: `v-${randomUUID().slice(0, 8)}`,
      location: location.code,
      size_mb: 1024,
    });
    expect(volume.status).toBe(201);
    const strangers = await placedInstance(t.stranger.id);
    const answers = await Promise.all(
      [randomUUID(), strangers.id, randomUUID()].map((instance) =>
        t.call(t.client, 'POST', `${API}/volumes/${volume.body.attributes.uuid}/attach`, { instance }),
      ),
    );
    const bodies = answers.map((a) => ({ status: a.status, errors: a.body.errors }));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]).toEqual({
      status: 404,
      errors: [
        {
          code: 'SVC-RES-404',
          status: 404,
          detail: 'instance: no such resource; the uuid in instance names nothing you can reach.',
          source: { field: 'instance' },
        },
      ],
    });
    const after = await t.call(t.client, 'GET', `${API}/volumes/${volume.body.attributes.uuid}`);
    expect(after.body.attributes).toMatchObject({ state: 'available', instance: null });
  });

  it('while the path’s own unknown resource keeps the plain 404', async () => {
    const answer = await t.call(t.client, 'POST', `${API}/volumes/${randomUUID()}/attach`, {
      instance: randomUUID(),
    });
    expect(answer.status).toBe(404);
    expect(answer.body.errors).toEqual([
      { code: 'SVC-RES-404', status: 404, detail: 'The requested resource was not found.' },
    ]);
  });
});

describe('an operation conflict', () => {
  it('says when to try again: Retry-After, the same on every refusal while the operation runs', async () => {
    const instance = await placedInstance();
    const first = await t.power(instance.id, 'stop');
    expect(first.status).toBe(202);
    for (const action of ['start', 'restart']) {
      const refused = await t.power(instance.id, action);
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('SVC-OP-409');
      expect(refused.headers.get('retry-after')).toBe(String(OPERATION_CONFLICT_RETRY_AFTER_SECONDS));
    }
    expect(await listOperationsOfInstance(t.db, instance.id, 5)).toHaveLength(1);
  });

  it('of two writes at once: one begins, the other is told when to try again', async () => {
    const instance = await placedInstance();
    const answers = await Promise.all([t.power(instance.id, 'stop'), t.power(instance.id, 'restart')]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.headers.get('retry-after')).toBe(String(OPERATION_CONFLICT_RETRY_AFTER_SECONDS));
    expect(await listOperationsOfInstance(t.db, instance.id, 5)).toHaveLength(1);
  });
});

/** A running instance of `userId` (the client by default) on a hypervisor of the test's location. */
async function placedInstance(userId = t.client.id) {
  const hypervisor = await seed.hypervisor(t.db, location.id);
  return seed.instance(t.db, {
    userId,
    locationId: location.id,
    hypervisorId: hypervisor.id,
    status: 'running',
  });
}
