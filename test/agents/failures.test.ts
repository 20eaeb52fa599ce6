import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppliedChange } from '../../agent/drivers/simulated/state.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { listActivityOfInstance } from '../../db/repositories/events/activity-log.js';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { provisionInstance } from '../../services/instances/provision.js';
import { startInProcessAgent } from '../support/agents/in-process.js';
import { eventually } from '../support/eventually.js';
import { seed } from '../support/seed.js';
import { FAST_AGENT_TIMING, type Stack, startStack } from '../support/stack.js';
import { startTestWorker } from '../support/worker.js';

/**
 * Every failure the simulated driver can rehearse, against the real bridge. Crashes, a stopped
 * (silent) agent and exit codes need an agent process; the rest run the agent in this process.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({ agents: true });
});
afterAll(() => env.close());

const powerChanges = (applied: AppliedChange[], instanceId: string) =>
  applied.filter((a) => a.type === 'instance.power' && a.instance_id === instanceId);

/** A provisioned instance whose stop is running on `started`'s agent. */
async function stopRunningOn<A>(
  started: Promise<{ hypervisor: { id: string; location_id: string }; agent: A }>,
) {
  const { hypervisor, agent } = await started;
  const instance = await env.provisionedInstance(hypervisor);
  expect((await env.power(instance.id, 'stop')).status).toBe(202);
  const workflowId = (await env.latestOperation(instance.id)).workflow_id;
  await eventually(
    async () => (await listTasksOfWorkflow(env.db, workflowId))[0]?.status === 'running',
    10_000,
    'running',
  );
  return { agent, instance, workflowId };
}

describe('when the agent fails', () => {
  it('an agent killed mid-task and restarted completes the step once', async () => {
    // The agent applies the stop on the hypervisor, then dies before it can report.
    const { hypervisor, agent } = await env.hypervisorWithAgentProcess({
      AGENT_SIM_FAULTS: JSON.stringify({ 'instance.power': { mode: 'crash-after', times: 1 } }),
    });
    const instance = await env.provisionedInstance(hypervisor);
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await agent.exited;
    expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
    expect((await findInstance(env.db, instance.id))?.status).toBe('stopping');

    agent.restart();
    const result = await env.operationResult(instance.id);
    expect(result).toEqual({ power_state: 'stopped' });
    expect((await findInstance(env.db, instance.id))?.status).toBe('stopped');
    expect(powerChanges(agent.hypervisor().applied, instance.id)).toHaveLength(1);
    const events = (await listActivityOfInstance(env.db, instance.id)).map((e) => e.event);
    expect(events.filter((e) => e === 'instance.stop.completed')).toHaveLength(1);
  });

  it('a crash armed in a running agent process kills it before the change; restarted, it applies it once', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgentProcess();
    const instance = await env.provisionedInstance(hypervisor);
    agent.armFault('instance.power', { mode: 'crash-before' });
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    expect(await agent.exited).toBeNull(); // killed by a signal
    expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('running');

    agent.restart();
    const result = await env.operationResult(instance.id);
    expect(result).toEqual({ power_state: 'stopped' });
    expect((await findInstance(env.db, instance.id))?.status).toBe('stopped');
    expect(powerChanges(agent.hypervisor().applied, instance.id)).toHaveLength(1);
  });

  it('a silent agent is found by the heartbeat timeout, and the step is retried as a new task', async () => {
    const { agent, instance, workflowId } = await stopRunningOn(
      env.hypervisorWithAgentProcess({
        AGENT_SIM_LATENCY_MS: JSON.stringify({ 'instance.power': 1500, default: 0 }),
      }),
    );

    agent.process.kill('SIGSTOP'); // alive but silent: no progress, no heartbeat
    const tasks = await eventually(
      async () => {
        const all = await listTasksOfWorkflow(env.db, workflowId);
        return all.length === 2 ? all : undefined;
      },
      20_000,
      'a second attempt',
    );
    expect(tasks[0]).toMatchObject({ attempt: 1, status: 'abandoned' });
    agent.process.kill('SIGCONT');

    await env.temporal.workflow.getHandle(workflowId).result();
    const final = await listTasksOfWorkflow(env.db, workflowId);
    expect(final.map((t) => [t.attempt, t.status])).toEqual([
      [1, 'abandoned'],
      [2, 'completed'],
    ]);
    expect((await findInstance(env.db, instance.id))?.status).toBe('stopped');
    expect(powerChanges(agent.hypervisor().applied, instance.id)).toHaveLength(1);
  });

  it('cancelling the workflow reaches the agent, which stops the task', async () => {
    const { agent, instance, workflowId } = await stopRunningOn(
      env.hypervisorWithAgent({
        AGENT_SIM_FAULTS: JSON.stringify({ 'instance.power': { mode: 'hang' } }),
      }),
    );

    const handle = env.temporal.workflow.getHandle(workflowId);
    await handle.cancel();
    await expect(handle.result()).rejects.toThrow();
    await eventually(
      () => agent.output.join('').includes('"msg":"task stopped"'),
      10_000,
      'the agent to stop the task',
    );

    expect((await listTasksOfWorkflow(env.db, workflowId))[0]?.status).toBe('cancelled');
    expect((await findInstance(env.db, instance.id))?.status).toBe('running');
    expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    const events = (await listActivityOfInstance(env.db, instance.id)).map((e) => e.event);
    expect(events[0]).toBe('instance.stop.cancelled');
    expect(agent.running).toBe(true);
  });

  it('a retryable failure is retried as a new attempt', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent({
      AGENT_SIM_FAULTS: JSON.stringify({ 'instance.power': { mode: 'fail', times: 1 } }),
    });
    const instance = await env.provisionedInstance(hypervisor);
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    const tasks = await listTasksOfWorkflow(env.db, (await env.latestOperation(instance.id)).workflow_id);
    expect(tasks.map((t) => t.status)).toEqual(['failed', 'completed']);
    expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
  });

  it('a fault armed while the agent runs hits its next task, and only that one', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);

    agent.armFault('instance.power', { mode: 'fail' });
    expect((await env.power(instance.id, 'start')).status).toBe(202);
    expect(await env.operationResult(instance.id)).toMatchObject({ power_state: 'running' });
    const tasks = await listTasksOfWorkflow(env.db, (await env.latestOperation(instance.id)).workflow_id);
    expect(tasks.map((t) => t.status)).toEqual(['failed', 'completed']);
    expect(powerChanges(agent.hypervisor().applied, instance.id).map((c) => c.detail)).toEqual([
      'stop',
      'start',
    ]);
  });

  it('a revoked agent stops working and exits', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgentProcess();
    const res = await env.admin.call(
      'POST',
      `/api/application/cloudsvc/hypervisors/${hypervisor.id}/revoke-agent`,
    );
    expect(res.status).toBe(200);
    expect(await agent.exited).toBe(77);
    expect(agent.output.join('')).toContain('refused the agent credential');
  });

  it('reports are retried with backoff across a panel restart, and the step completes', async () => {
    const panel = await startStack({ listen: true, config: FAST_AGENT_TIMING });
    const worker = await startTestWorker(panel.config);
    let restarted: Awaited<ReturnType<typeof startStack>> | undefined;
    try {
      const hypervisor = await seed.hypervisor(panel.deps.db);
      const token = await createCredential(panel.deps.db, {
        type: 'enrollment',
        hypervisorId: hypervisor.id,
        expiresAt: new Date(Date.now() + 60_000),
      });
      const agent = startInProcessAgent({
        AGENT_PANEL_URL: panel.url,
        AGENT_ENROLLMENT_TOKEN: token.token,
        AGENT_SIM_LATENCY_MS: JSON.stringify({ 'instance.create': 2500, default: 0 }),
      });
      try {
        const instance = await seed.instance(panel.deps.db, {
          userId: env.client.id,
          locationId: hypervisor.location_id,
          hypervisorId: hypervisor.id,
          status: 'provisioning',
        });
        const { workflowId } = await provisionInstance(
          panel.deps,
          { type: 'system', name: 'test' },
          instance,
          'debian-12',
          null,
        );
        await eventually(
          async () => (await listTasksOfWorkflow(env.db, workflowId))[0]?.status === 'running',
          15_000,
          'running',
        );

        // The panel goes away mid-task and comes back on the same address.
        const port = new URL(panel.url).port;
        await panel.close();
        await new Promise((r) => setTimeout(r, 1500));
        restarted = await startStack({
          listen: true,
          config: {
            ...FAST_AGENT_TIMING,
            PORT: port,
            TEMPORAL_TASK_QUEUE: panel.config.TEMPORAL_TASK_QUEUE,
          },
        });

        // The first panel's Temporal client closed with it: follow the workflow from another one.
        // (Its result carries the hypervisor's answer: the power state and the room it booted with.)
        expect(await env.temporal.workflow.getHandle(workflowId).result()).toMatchObject({
          power_state: 'running',
        });
        expect(agent.output.join('')).toContain('panel unreachable; retrying');
        expect((await findInstance(env.db, instance.id))?.status).toBe('running');
      } finally {
        await agent.stop();
      }
    } finally {
      await restarted?.close();
      await worker.stop();
    }
  });
});
