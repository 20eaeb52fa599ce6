import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { pruneFinishedTasks } from '../../db/repositories/hypervisors/agent-task-queue.js';
import { findTask } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { pruneSamples, storeSamples } from '../../db/repositories/metrics/metrics.js';
import { eventually } from '../support/eventually.js';
import { json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * The report rules (SPEC.md §6) driven by hand, as an agent would speak them, with no agent
 * process in the way.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({ agents: true });
});
afterAll(() => env.close());

async function hypervisorWithCredential() {
  const hypervisor = await seed.hypervisor(env.db);
  const { token } = await createCredential(env.db, { type: 'agent', hypervisorId: hypervisor.id });
  return { hypervisor, token };
}

const agentCall = (token: string, path: string, body?: unknown) =>
  fetch(`${env.url}/api/cloudsvc/agent${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function queuedPowerTask(action = 'stop') {
  const { hypervisor, token } = await hypervisorWithCredential();
  const instance = await seed.instance(env.db, {
    userId: env.client.id,
    locationId: hypervisor.location_id,
    hypervisorId: hypervisor.id,
    status: 'running',
  });
  expect((await env.power(instance.id, action)).status).toBe(202);
  const res = await agentCall(token, '/tasks/next?wait_ms=10000');
  expect(res.status).toBe(200);
  const task = (await json(res)).attributes;
  return { hypervisor, token, instance, task };
}

describe('agent reports', () => {
  it('are idempotent on (task_id, sequence), take out-of-order progress, and complete the workflow once', async () => {
    const { token, instance, task } = await queuedPowerTask();
    expect(task.type).toBe('instance.power');
    expect(task.params).toEqual({ instance_id: instance.id, action: 'stop' });
    expect(task.next_sequence).toBe(1);
    const report = (kind: string, body: object) => agentCall(token, `/tasks/${task.task_id}/${kind}`, body);

    const started = await json(await report('started', { sequence: 1 }));
    expect(started.attributes).toMatchObject({ state: 'running', directive: 'continue' });
    expect(await json(await report('started', { sequence: 1 }))).toEqual(started);

    await report('progress', { sequence: 3, percent: 60 });
    const late = await json(await report('progress', { sequence: 2, percent: 30 }));
    expect(late.attributes).toMatchObject({ state: 'running', directive: 'continue' });
    const row = await env.db
      .selectFrom('agent_tasks')
      .select(['progress', 'last_sequence'])
      .where('id', '=', task.task_id)
      .executeTakeFirstOrThrow();
    expect(row.last_sequence).toBe(3);
    expect(row.progress).toMatchObject({ percent: 60 });

    const done = await json(await report('completed', { sequence: 4, result: { power_state: 'stopped' } }));
    expect(done.attributes).toMatchObject({ state: 'completed', directive: 'stop' });
    // The same completion again: the stored answer, no second completion.
    expect(
      await json(await report('completed', { sequence: 4, result: { power_state: 'stopped' } })),
    ).toEqual(done);
    // A report after the end: told to stop.
    expect((await json(await report('progress', { sequence: 5 }))).attributes.directive).toBe('stop');

    await env.operationResult(instance.id);
    expect((await findInstance(env.db, instance.id))?.status).toBe('stopped');
    const stored = await env.db
      .selectFrom('agent_task_reports')
      .select('sequence')
      .where('task_id', '=', task.task_id)
      .execute();
    expect(stored.map((r) => r.sequence).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('delivers a heartbeat to Temporal after its answer while the task runs, and not once it has finished', async () => {
    const deliveredAt = async (taskId: string, sequence: number) =>
      (
        await env.db
          .selectFrom('agent_task_reports')
          .select('delivered_at')
          .where('task_id', '=', taskId)
          .where('sequence', '=', sequence)
          .executeTakeFirstOrThrow()
      ).delivered_at;
    for (const action of ['stop', 'restart']) {
      // A task still running: its started report is answered at once, and delivered soon after.
      const running = await queuedPowerTask(action);
      const report = (kind: string, body: object) =>
        agentCall(running.token, `/tasks/${running.task.task_id}/${kind}`, body);
      expect((await report('started', { sequence: 1 })).status).toBe(200);
      expect(await deliveredAt(running.task.task_id, 1)).toBeNull();
      await eventually(async () => (await deliveredAt(running.task.task_id, 1)) !== null, 10_000, 'delivery');
      await report('completed', {
        sequence: 2,
        result: { power_state: action === 'stop' ? 'stopped' : 'running' },
      });

      // A task whose completion came right behind its started report: Temporal hears only the completion.
      const quick = await queuedPowerTask(action);
      const quickReport = (kind: string, body: object) =>
        agentCall(quick.token, `/tasks/${quick.task.task_id}/${kind}`, body);
      const started = await json(await quickReport('started', { sequence: 1 }));
      expect(started.attributes.state).toBe('running');
      const completed = await quickReport('completed', {
        sequence: 2,
        result: { power_state: action === 'stop' ? 'stopped' : 'running' },
      });
      expect(completed.status).toBe(200);
      expect(await deliveredAt(quick.task.task_id, 2)).not.toBeNull();
      await new Promise((r) => setTimeout(r, 500));
      expect(await deliveredAt(quick.task.task_id, 1)).toBeNull();
    }
  });

  it('answers a report for another hypervisor’s task, or an unknown one, with 404', async () => {
    const { task } = await queuedPowerTask();
    const other = await hypervisorWithCredential();
    const foreign = await agentCall(other.token, `/tasks/${task.task_id}/started`, { sequence: 1 });
    expect(foreign.status).toBe(404);
    expect((await json(foreign)).errors[0].code).toBe('SVC-RES-404');
    expect((await agentCall(other.token, `/tasks/${randomUUID()}/started`, { sequence: 1 })).status).toBe(
      404,
    );
  });

  it('fails the step for good when the agent says retrying cannot help', async () => {
    const { token, instance, task } = await queuedPowerTask();
    const answer = await json(
      await agentCall(token, `/tasks/${task.task_id}/failed`, {
        sequence: 1,
        error: { code: 'INSTANCE_NOT_FOUND', message: 'no such domain', retryable: false },
      }),
    );
    expect(answer.attributes).toMatchObject({ state: 'failed', directive: 'stop' });
    await expect(env.operationResult(instance.id)).rejects.toThrow();
    expect((await findInstance(env.db, instance.id))?.status).toBe('running');
  });

  it('fails a completion whose result has the wrong shape', async () => {
    const { token, instance, task } = await queuedPowerTask();
    const answer = await json(
      await agentCall(token, `/tasks/${task.task_id}/completed`, { sequence: 1, result: { power: 'on' } }),
    );
    expect(answer.attributes.state).toBe('failed');
    // Not final: a result of the wrong shape is retried as a new attempt.
    const retried = await json(await agentCall(token, '/tasks/next?wait_ms=10000'));
    expect(retried.attributes.attempt).toBe(2);
    await agentCall(token, `/tasks/${retried.attributes.task_id}/completed`, {
      sequence: 1,
      result: { power_state: 'stopped' },
    });
    await env.operationResult(instance.id);
  });

  it('refuses malformed reports without effect', async () => {
    const { token, task } = await queuedPowerTask();
    for (const body of [{}, { sequence: 0 }, { sequence: 'one' }]) {
      const res = await agentCall(token, `/tasks/${task.task_id}/started`, body);
      expect(res.status).toBe(400);
    }
    const bad = await agentCall(token, `/tasks/${task.task_id}/failed`, {
      sequence: 1,
      error: { code: 'lower case', message: '' },
    });
    expect(bad.status).toBe(400);
    const row = await env.db
      .selectFrom('agent_tasks')
      .select(['status'])
      .where('id', '=', task.task_id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('leased');
  });

  it('keeps metric samples only for the agent’s own instances, once each', async () => {
    const { hypervisor, token } = await hypervisorWithCredential();
    const mine = await seed.instance(env.db, {
      userId: env.client.id,
      locationId: hypervisor.location_id,
      hypervisorId: hypervisor.id,
    });
    const elsewhere = await seed.instance(env.db, {
      userId: env.client.id,
      locationId: hypervisor.location_id,
    });
    const sample = (id: string) => ({
      instance_uuid: id,
      sampled_at: new Date().toISOString(),
      cpu_percent: 12.5,
      memory_used_mb: 512,
      disk_read_bytes: 1,
      disk_write_bytes: 2,
      net_rx_bytes: 3,
      net_tx_bytes: 4,
    });
    const one = sample(mine.id);
    const res = await agentCall(token, '/metrics', { samples: [one, sample(elsewhere.id)] });
    expect(res.status).toBe(202);
    expect((await json(res)).attributes).toEqual({ received: 2, stored: 1 });
    expect((await json(await agentCall(token, '/metrics', { samples: [one] }))).attributes.stored).toBe(0);
    expect(await storeSamples(env.db, hypervisor.id, [])).toBe(0);
  });

  it('keeps metric samples for the retention and no longer', async () => {
    const { hypervisor } = await hypervisorWithCredential();
    const instance = await seed.instance(env.db, {
      userId: env.client.id,
      locationId: hypervisor.location_id,
      hypervisorId: hypervisor.id,
    });
    const at = (hoursAgo: number) => ({
      instanceId: instance.id,
      sampledAt: new Date(Date.now() - hoursAgo * 3_600_000),
      cpuPercent: 1,
      memoryUsedMb: 1,
      diskReadBytes: 0,
      diskWriteBytes: 0,
      netRxBytes: 0,
      netTxBytes: 0,
    });
    expect(await storeSamples(env.db, hypervisor.id, [at(1), at(30)])).toBe(2);
    expect(await pruneSamples(env.db, 24)).toBeGreaterThanOrEqual(1);
    const left = await env.db
      .selectFrom('instance_metrics')
      .select('sampled_at')
      .where('instance_id', '=', instance.id)
      .execute();
    expect(left).toHaveLength(1);
  });

  it('keeps finished tasks for the retention; unfinished ones stay whatever their age', async () => {
    const { token, task } = await queuedPowerTask();
    await agentCall(token, `/tasks/${task.task_id}/completed`, {
      sequence: 1,
      result: { power_state: 'stopped' },
    });
    const age = (id: string, hours: number) =>
      env.db
        .updateTable('agent_tasks')
        .set({ finished_at: sql`now() - ${`${hours} hours`}::interval` })
        .where('id', '=', id)
        .execute();
    await age(task.task_id, 800);
    const pending = await queuedPowerTask();
    await env.db
      .updateTable('agent_tasks')
      .set({ created_at: sql`now() - interval '900 hours'` })
      .where('id', '=', pending.task.task_id)
      .execute();

    expect(await pruneFinishedTasks(env.db, 720)).toBeGreaterThanOrEqual(1);
    expect(await findTask(env.db, task.task_id)).toBeUndefined();
    expect((await findTask(env.db, pending.task.task_id))?.id).toBe(pending.task.task_id);
    const reports = await env.db
      .selectFrom('agent_task_reports')
      .select('sequence')
      .where('task_id', '=', task.task_id)
      .execute();
    expect(reports).toEqual([]);
  });
});
