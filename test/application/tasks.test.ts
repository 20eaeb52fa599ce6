import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Agent tasks through the Application API, with a real worker: one hypervisor whose agent runs
 * its tasks, and one that is online but whose agent never asks, so its tasks stay queued.
 */
let t: Stack;
let busy: { id: string; location_id: string };
let silent: { id: string; location_id: string };
beforeAll(async () => {
  t = await startStack({ agents: true, config: { AGENT_TASK_PICKUP_TIMEOUT_MS: '60000' } });
  ({ hypervisor: busy } = await t.hypervisorWithAgent());
  ({ hypervisor: silent } = await t.agent());
  await t.db
    .updateTable('hypervisors')
    .set({ status: 'online', last_seen_at: new Date() })
    .where('id', '=', silent.id)
    .execute();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

const tasksOf = async (instanceId: string) =>
  (await admin('GET', `/tasks?instance=${instanceId}`)).body.data.map((d: Body) => d.attributes);

/** An instance on the silent hypervisor with a stop queued for it, and that task. */
async function queuedStop() {
  const instance = await seed.instance(t.db, {
    userId: t.client.id,
    locationId: silent.location_id,
    hypervisorId: silent.id,
  });
  expect((await t.power(instance.id, 'stop')).status).toBe(202);
  const task = await eventually(
    async () => (await tasksOf(instance.id)).find((task: Body) => task.state === 'queued'),
    10_000,
    'the stop queued',
  );
  return { instance, task };
}

const instanceStatus = async (id: string) => (await admin('GET', `/instances/${id}`)).body.attributes;

describe('the agent task list', () => {
  it('shows each task with its state, attempt, age and operation, filtered and read on by cursor', async () => {
    const instance = await t.provisionedInstance(busy);
    expect((await t.power(instance.id, 'stop')).status).toBe(202);
    await t.operationResult(instance.id);
    const tasks = await tasksOf(instance.id);
    expect(tasks.map((task: Body) => [task.type, task.state, task.operation?.kind])).toEqual([
      ['instance.power', 'completed', 'stop'],
      ['instance.create', 'completed', 'provision'],
    ]);
    expect(tasks[0]).toMatchObject({
      hypervisor_id: busy.id,
      instance_id: instance.id,
      attempt: 1,
      error: null,
    });
    expect(tasks[0].age_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(tasks)).not.toMatch(/params|task_token|root_password/);
    expect((await admin('GET', `/tasks/${tasks[0].uuid}`)).body.attributes).toMatchObject({
      uuid: tasks[0].uuid,
    });

    const first = (await admin('GET', `/tasks?instance=${instance.id}&per_page=1`)).body;
    const second = (
      await admin('GET', `/tasks?instance=${instance.id}&per_page=1&cursor=${first.meta.cursor.next}`)
    ).body;
    expect([...first.data, ...second.data].map((d: Body) => d.attributes.uuid)).toEqual(
      tasks.map((x: Body) => x.uuid),
    );
    expect(second.meta.cursor.next).toBeNull();
    const ofHypervisor = (await admin('GET', `/tasks?hypervisor=${busy.id}&state=completed&per_page=100`))
      .body.data;
    expect(ofHypervisor.every((d: Body) => d.attributes.hypervisor_id === busy.id)).toBe(true);
    expect(ofHypervisor.map((d: Body) => d.attributes.uuid)).toContain(tasks[0].uuid);
    for (const query of ['state=lost', 'hypervisor=hv-1', 'instance=1']) {
      expect((await admin('GET', `/tasks?${query}`)).status, query).toBe(400);
    }
    expect((await admin('GET', `/tasks/${randomUUID()}`)).status).toBe(404);
  });
});

describe('cancelling a queued task', () => {
  it('fails its operation, which puts the instance back, and tells the customer why', async () => {
    const { instance, task } = await queuedStop();
    const cancelled = await admin('POST', `/tasks/${task.uuid}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.attributes).toMatchObject({
      state: 'cancelled',
      error: { code: 'CANCELLED_BY_PROVIDER' },
    });
    await eventually(
      async () => (await instanceStatus(instance.id)).operation === null,
      10_000,
      'the stop to fail',
    );
    expect((await instanceStatus(instance.id)).status).toBe('running');
    const [stop] = (await t.call(t.client, 'GET', `/api/client/cloud/${instance.id}/tasks`)).body.data;
    expect(stop.attributes).toMatchObject({
      operation: 'stop',
      state: 'failed',
      error: { code: 'CANCELLED_BY_PROVIDER' },
    });

    const again = await admin('POST', `/tasks/${task.uuid}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].detail).toContain('cancelled');
  });

  it('takes one of two cancellations at once', async () => {
    const { instance, task } = await queuedStop();
    const both = await Promise.all([
      admin('POST', `/tasks/${task.uuid}/cancel`),
      admin('POST', `/tasks/${task.uuid}/cancel`),
    ]);
    expect(statusesOf(both)).toEqual([200, 409]);
    await eventually(
      async () => (await instanceStatus(instance.id)).operation === null,
      10_000,
      'the stop to fail',
    );
  });

  it('refuses a task an agent has finished, changing nothing', async () => {
    const instance = await t.provisionedInstance(busy);
    const [created] = await tasksOf(instance.id);
    const refused = await admin('POST', `/tasks/${created.uuid}/cancel`);
    expect(refused.status).toBe(409);
    expect((await admin('GET', `/tasks/${created.uuid}`)).body.attributes.state).toBe('completed');
  });
});

describe('retrying a failed task', () => {
  it('asks its operation again as the administrator; a second retry at once is refused', async () => {
    const { instance, task } = await queuedStop();
    await admin('POST', `/tasks/${task.uuid}/cancel`);
    await eventually(
      async () => (await instanceStatus(instance.id)).operation === null,
      10_000,
      'the stop to fail',
    );
    const both = await Promise.all([
      admin('POST', `/tasks/${task.uuid}/retry`),
      admin('POST', `/tasks/${task.uuid}/retry`),
    ]);
    expect(statusesOf(both)).toEqual([202, 409]);
    const accepted = both.find((r) => r.status === 202)!;
    expect(accepted.body.attributes).toMatchObject({ status: 'stopping', operation: { kind: 'stop' } });
    expect(both.find((r) => r.status === 409)!.body.errors[0].code).toBe('SVC-OP-409');
    const requeued = await eventually(
      async () => (await tasksOf(instance.id)).find((x: Body) => x.state === 'queued'),
      10_000,
      'the retried stop queued',
    );
    expect(requeued.uuid).not.toBe(task.uuid);
    await admin('POST', `/tasks/${requeued.uuid}/cancel`);
  });

  it('refuses a task that did not fail, and one whose operation is not retried from here', async () => {
    const instance = await t.provisionedInstance(busy);
    const [created] = await tasksOf(instance.id);
    const completed = await admin('POST', `/tasks/${created.uuid}/retry`);
    expect(completed.status).toBe(409);
    await t.db.updateTable('agent_tasks').set({ status: 'failed' }).where('id', '=', created.uuid).execute();
    const provision = await admin('POST', `/tasks/${created.uuid}/retry`);
    expect(provision.status).toBe(409);
    expect(provision.body.errors[0].detail).toContain('not retried from here');
    expect((await instanceStatus(instance.id)).operation).toBeNull();
  });
});

describe('the task routes', () => {
  it('are the administrators’ alone: 403 for a client key, 401 for none', async () => {
    const id = randomUUID();
    for (const [method, path] of [
      ['GET', '/tasks'],
      ['GET', `/tasks/${id}`],
      ['POST', `/tasks/${id}/cancel`],
      ['POST', `/tasks/${id}/retry`],
    ] as const) {
      expect((await t.call(t.client, method, `/api/application/cloudsvc${path}`)).status, path).toBe(403);
      expect((await t.call(null, method, `/api/application/cloudsvc${path}`)).status, path).toBe(401);
    }
  });
});
