import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { listActivityOfInstance } from '../../db/repositories/events/activity-log.js';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import {
  findOperation,
  listOperationsOfInstance,
} from '../../db/repositories/instances/instance-operation-reads.js';
import { beginOperation } from '../../db/repositories/instances/instance-operations.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { instanceOperationWorkflowId } from '../../domain/workflow-ids.js';
import { requestPowerAction } from '../../services/instances/power.js';
import { stepTiming } from '../../services/workflow-starts.js';
import type { PowerInstanceInput } from '../../workflows/power-instance.js';
import { eventually } from '../support/eventually.js';
import { json } from '../support/http.js';
import { reconcileOperationsOf } from '../support/reconcile.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * The operations engine on power actions: the same operation again and again on one instance,
 * two at once, preemption, queue waits, runs that vanish, and the hypervisor having the last word.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({ agents: true, config: { AGENT_TASK_HEARTBEAT_TIMEOUT_MS: '3000' } });
});
afterAll(() => env.close());

const powerChanges = (applied: { type: string; instance_id: string }[], instanceId: string) =>
  applied.filter((a) => a.type === 'instance.power' && a.instance_id === instanceId);

/** The instance's status and the operation that holds it, if any. */
const instanceState = (instanceId: string) =>
  env.db
    .selectFrom('instances')
    .select(['status', 'operation_id'])
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();

async function settled(instanceId: string, status: string) {
  return eventually(
    async () => {
      const instance = await instanceState(instanceId);
      return instance.status === status && instance.operation_id === null ? instance : undefined;
    },
    10_000,
    `the instance to settle ${status}`,
  );
}

describe('power operations on one instance', () => {
  it('50 alternating stops and starts each settle, on the first attempt', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    for (let i = 0; i < 50; i++) {
      const action = i % 2 === 0 ? 'stop' : 'start';
      const res = await env.power(instance.id, action);
      expect(res.status, `action ${i + 1} (${action})`).toBe(202);
      await settled(instance.id, action === 'stop' ? 'stopped' : 'running');
    }
    // No heartbeat timeout anywhere: every action's task was taken and completed on its first attempt.
    const operations = await listOperationsOfInstance(env.db, instance.id, 100);
    const power = operations.filter((o) => o.kind !== 'provision');
    expect(power).toHaveLength(50);
    expect(power.every((o) => o.state === 'succeeded')).toBe(true);
    for (const operation of power) {
      const tasks = await listTasksOfWorkflow(env.db, operation.workflow_id);
      expect(tasks.map((t) => [t.attempt, t.status])).toEqual([[1, 'completed']]);
    }
    expect(powerChanges(agent.hypervisor().applied, instance.id)).toHaveLength(50);
  });

  it('two actions at once: one is accepted, the other refused with SVC-OP-409', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const answers = await Promise.all([env.power(instance.id, 'stop'), env.power(instance.id, 'stop')]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(refused.body.errors[0].code).toBe('SVC-OP-409');
    await settled(instance.id, 'stopped');
    expect(powerChanges(agent.hypervisor().applied, instance.id)).toHaveLength(1);

    // And twice at once again on the same instance, now that it is stopped.
    const again = await Promise.all([env.power(instance.id, 'start'), env.power(instance.id, 'start')]);
    expect(again.map((r) => r.status).sort()).toEqual([202, 409]);
    await settled(instance.id, 'running');
    expect(powerChanges(agent.hypervisor().applied, instance.id)).toHaveLength(2);
  });

  it('kill takes over a hung stop: the stop is cancelled and its task withdrawn', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    agent.armFault('instance.power', { mode: 'hang' });
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    const stop = await env.latestOperation(instance.id);
    await eventually(
      async () => (await listTasksOfWorkflow(env.db, stop.workflow_id))[0]?.status === 'running',
      10_000,
      'the stop to run',
    );

    const killed = await env.power(instance.id, 'kill');
    expect(killed.status).toBe(202);
    expect(killed.body.attributes.status).toBe('stopping');
    await settled(instance.id, 'stopped');

    expect((await findOperation(env.db, stop.id))?.state).toBe('preempted');
    const kill = await env.latestOperation(instance.id);
    expect(kill).toMatchObject({ kind: 'kill', state: 'succeeded', from_status: 'running' });
    expect((await listTasksOfWorkflow(env.db, stop.workflow_id))[0]?.status).toBe('cancelled');
    await expect(env.temporal.workflow.getHandle(stop.workflow_id).result()).rejects.toThrow();
    expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
    // The cancelled stop's cleanup changed nothing: the instance stays as the kill left it.
    expect((await findInstance(env.db, instance.id))?.status).toBe('stopped');
  });

  it('a failed action puts the instance back, and the next request is accepted at once', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    agent.armFault('instance.power', { mode: 'fail-permanently' });
    expect((await env.power(instance.id, 'restart')).status).toBe(202);
    await expect(env.operationResult(instance.id)).rejects.toThrow();
    expect((await findInstance(env.db, instance.id))?.status).toBe('running');
    const failed = await env.latestOperation(instance.id);
    expect(failed.state).toBe('failed');
    expect(failed.outcome).toMatchObject({ error: { code: 'SIMULATED_FAILURE' } });
    const events = (await listActivityOfInstance(env.db, instance.id)).map((e) => e.event);
    expect(events[0]).toBe('instance.restart.failed');

    expect((await env.power(instance.id, 'restart')).status).toBe(202);
    expect(await env.operationResult(instance.id)).toMatchObject({ power_state: 'running' });
  });
});

describe('the agent queue', () => {
  it('a power action queued behind a busy one-slot agent waits without failing', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent({
      AGENT_CONCURRENCY: '1',
      // Longer than the 3 s heartbeat timeout: the queued stop must survive the wait.
      AGENT_SIM_LATENCY_MS: JSON.stringify({ 'hypervisor.probe': 5000, default: 0 }),
    });
    const instance = await env.provisionedInstance(hypervisor);
    const admin = await seed.user(env.db, { admin: true });
    const appKey = await seed.key(env.db, admin.id, 'application');
    const probe = fetch(`${env.url}/api/application/cloudsvc/hypervisors/${hypervisor.id}/probe`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${appKey}` },
    });
    await eventually(
      async () =>
        (
          await env.db
            .selectFrom('agent_tasks')
            .select('status')
            .where('hypervisor_id', '=', hypervisor.id)
            .where('type', '=', 'hypervisor.probe')
            .executeTakeFirst()
        )?.status === 'running',
      10_000,
      'the probe to occupy the slot',
    );

    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    expect(await env.operationResult(instance.id)).toEqual({ power_state: 'stopped' });
    const stop = await env.latestOperation(instance.id);
    const tasks = await listTasksOfWorkflow(env.db, stop.workflow_id);
    expect(tasks.map((t) => [t.attempt, t.status])).toEqual([[1, 'completed']]);
    expect((await probe).status).toBe(200);
    expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
  });

  it('a task no agent takes within AGENT_TASK_PICKUP_TIMEOUT_MS fails the operation with its own code', async () => {
    const quick = await startStack({ agents: true, config: { AGENT_TASK_PICKUP_TIMEOUT_MS: '1500' } });
    try {
      // A hypervisor whose agent never polls.
      const hypervisor = await seed.hypervisor(quick.db);
      const instance = await seed.instance(quick.db, {
        userId: quick.client.id,
        locationId: hypervisor.location_id,
        hypervisorId: hypervisor.id,
      });
      expect((await quick.power(instance.id, 'stop')).status).toBe(202);
      await expect(quick.operationResult(instance.id)).rejects.toThrow();
      const operation = await quick.latestOperation(instance.id);
      expect(operation.outcome).toMatchObject({ error: { code: 'AGENT_TASK_NOT_PICKED_UP' } });
      expect((await findInstance(quick.db, instance.id))?.status).toBe('running');
      const tasks = await listTasksOfWorkflow(quick.db, operation.workflow_id);
      expect(tasks.map((t) => t.status)).toEqual(['abandoned']);
    } finally {
      await quick.close();
    }
  });
});

/** A hypervisor whose "agent" is this test, speaking the Agent API by hand. */
async function hypervisorDrivenByHand() {
  const hypervisor = await seed.hypervisor(env.db);
  const { token } = await createCredential(env.db, { type: 'agent', hypervisorId: hypervisor.id });
  const instance = await seed.instance(env.db, {
    userId: env.client.id,
    locationId: hypervisor.location_id,
    hypervisorId: hypervisor.id,
  });
  const call = (path: string, body?: unknown) =>
    fetch(`${env.url}/api/cloudsvc/agent${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    hypervisor,
    instance,
    call,
    async nextTask(waitMs = 10_000) {
      const res = await call(`/tasks/next?wait_ms=${waitMs}`);
      return res.status === 200 ? (await json(res)).attributes : undefined;
    },
  };
}

describe('what the hypervisor reports is what is recorded', () => {
  it('a stop that leaves the guest running is recorded as running', async () => {
    const { instance, call, nextTask } = await hypervisorDrivenByHand();
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    const offered = await nextTask();
    await call(`/tasks/${offered.task_id}/started`, { sequence: 1 });
    await call(`/tasks/${offered.task_id}/completed`, { sequence: 2, result: { power_state: 'running' } });

    await env.operationResult(instance.id);
    expect((await findInstance(env.db, instance.id))?.status).toBe('running');
    const operation = await env.latestOperation(instance.id);
    expect(operation.outcome).toEqual({ power_state: 'running', expected: 'stopped' });
  });

  it('a stop the hypervisor applied and then failed: the failure is recorded, the status is the guest’s (stopped), twice', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    for (let round = 0; round < 2; round++) {
      agent.armFault('instance.power', { mode: 'fail-after', times: 1 });
      expect((await env.power(instance.id, 'stop')).status).toBe(202);
      await expect(env.operationResult(instance.id)).rejects.toThrow();
      expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
      expect((await findInstance(env.db, instance.id))?.status).toBe('stopped');
      const failed = await env.latestOperation(instance.id);
      expect(failed.state).toBe('failed');
      expect(failed.outcome).toMatchObject({ error: { code: 'SIMULATED_FAILURE' } });
      // The customer goes on from what the panel shows.
      expect((await env.power(instance.id, 'start')).status).toBe(202);
      expect(await env.operationResult(instance.id)).toMatchObject({ power_state: 'running' });
    }
  });
});

const reconcile = (instanceId: string) => reconcileOperationsOf(env.deps, [instanceId]);

describe('runs that vanish', () => {
  it("a terminated run's queued task is withdrawn and never offered; the next action runs alone", async () => {
    const { instance, call, nextTask } = await hypervisorDrivenByHand();
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    const lost = await env.latestOperation(instance.id);
    await eventually(
      async () => (await listTasksOfWorkflow(env.db, lost.workflow_id))[0]?.status === 'queued',
      10_000,
      'the task to be queued',
    );
    await env.temporal.workflow.getHandle(lost.workflow_id).terminate('operator terminated the run');

    // Until reconciled, the instance still belongs to the lost operation.
    expect((await env.power(instance.id, 'stop')).status).toBe(409);
    expect((await reconcile(instance.id)).abandoned).toBeGreaterThanOrEqual(1);
    expect((await findOperation(env.db, lost.id))?.state).toBe('abandoned');
    expect(await instanceState(instance.id)).toEqual({ status: 'running', operation_id: null });
    expect((await listTasksOfWorkflow(env.db, lost.workflow_id))[0]?.status).toBe('cancelled');
    const events = (await listActivityOfInstance(env.db, instance.id)).map((e) => e.event);
    expect(events[0]).toBe('instance.stop.abandoned');

    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    const next = await env.latestOperation(instance.id);
    const offered = await nextTask();
    const [nextTaskRow] = await listTasksOfWorkflow(env.db, next.workflow_id);
    expect(offered.task_id).toBe(nextTaskRow?.id);
    await call(`/tasks/${offered.task_id}/completed`, { sequence: 1, result: { power_state: 'stopped' } });
    expect(await env.operationResult(instance.id)).toEqual({ power_state: 'stopped' });
    expect(await nextTask(300)).toBeUndefined();
    const [withdrawn] = await listTasksOfWorkflow(env.db, lost.workflow_id);
    expect(withdrawn).toMatchObject({ status: 'cancelled' });
  });

  it('a start refused by Temporal puts the instance back (503)', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const cut = { ...env.deps, config: { ...env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } };
    await expect(
      requestPowerAction(
        cut,
        { type: 'user', userId: env.client.id },
        { instanceId: instance.id, action: 'stop', correlationId: null },
      ),
    ).rejects.toMatchObject({ code: 'SVC-SYS-503' });
    expect(await instanceState(instance.id)).toEqual({ status: 'running', operation_id: null });
    expect((await env.latestOperation(instance.id)).state).toBe('abandoned');
    // The record names the real cause, not the hypervisor.
    const tasks = await env.client.call('GET', `/api/client/cloud/${instance.id}/tasks?per_page=1`);
    expect(tasks.body.data[0].attributes).toMatchObject({
      operation: 'stop',
      state: 'abandoned',
      error: {
        code: 'WORKFLOW_UNAVAILABLE',
        message:
          'The operation could not be started: the service was unavailable. Nothing was changed; try again.',
      },
    });
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    expect(await env.operationResult(instance.id)).toEqual({ power_state: 'stopped' });
  });

  it('an operation recorded but never started (a crash in between) is started by the reconciler', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    // What the service commits before it calls Temporal, and nothing after.
    const operationId = randomUUID();
    const workflowId = instanceOperationWorkflowId('stop', instance.id, operationId);
    const input: PowerInstanceInput = {
      operation: {
        operationId,
        instanceId: instance.id,
        hypervisorId: hypervisor.id,
        kind: 'stop',
        correlationId: null,
        timing: stepTiming(env.config),
      },
      action: 'stop',
    };
    const begun = await env.db.transaction().execute((trx) =>
      beginOperation(trx, {
        operationId,
        instanceId: instance.id,
        kind: 'stop',
        workflowId,
        workflowType: 'powerInstance',
        workflowInput: input,
        actor: 'system:test',
        byCustomer: false,
        correlationId: null,
      }),
    );
    expect(begun.begun).toBe(true);

    expect((await reconcile(instance.id)).started).toBeGreaterThanOrEqual(1);
    expect(await env.temporal.workflow.getHandle(workflowId).result()).toEqual({ power_state: 'stopped' });
    expect(await instanceState(instance.id)).toEqual({ status: 'stopped', operation_id: null });
    expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
    // Reconciling again finds nothing to do for it.
    await reconcile(instance.id);
    expect((await findOperation(env.db, operationId))?.state).toBe('succeeded');
  });
});

describe('finding runs in Temporal', () => {
  it('every operation run carries the instance, hypervisor and operation as search attributes', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    const run = promisify(execFile);
    const query = `${SEARCH_ATTRIBUTES.instance}="${instance.id}" AND ${SEARCH_ATTRIBUTES.operation}="stop"`;
    const listed = await eventually(
      async () => {
        const { stdout } = await run(inject('temporalCliPath'), [
          'workflow',
          'list',
          '--address',
          inject('temporalAddress'),
          '--query',
          query,
          '--output',
          'json',
        ]);
        const rows = JSON.parse(stdout || '[]') as { execution: { workflowId: string } }[];
        return rows.length > 0 ? rows : undefined;
      },
      15_000,
      'the run to be listed',
    );
    expect(listed.map((r) => r.execution.workflowId)).toEqual([
      (await env.latestOperation(instance.id)).workflow_id,
    ]);
  });
});
