import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { overlap, taskRuns } from '../support/agents/runs.js';
import { eventually } from '../support/eventually.js';
import { FAST_AGENT_TIMING, type Stack, startStack } from '../support/stack.js';

/**
 * One run per step at a time on a hypervisor (agent/running-steps.ts), when the panel and its
 * agent lose each other for a while (the agent stopped with SIGSTOP: alive, silent, then back).
 * The agent's polls stay open for 20 s here, so that a task the panel leases while the agent
 * cannot act is waiting for it the moment it can: the race the fault suite found
 * (test/faults/agents.test.ts) is then certain, not one in a few runs. A lease of 1 s lapses well
 * before the 5 s heartbeat timeout retries the step.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: {
      ...FAST_AGENT_TIMING,
      AGENT_POLL_MAX_WAIT_MS: '20000',
      AGENT_TASK_LEASE_MS: '1000',
      AGENT_TASK_HEARTBEAT_TIMEOUT_MS: '5000',
    },
  });
});
afterAll(() => env.close());

/** A stop running on a new agent process whose power actions take `powerMs`; its task and the agent. */
async function stopRunning(powerMs: number) {
  const { hypervisor, agent } = await env.hypervisorWithAgentProcess({
    AGENT_SIM_LATENCY_MS: JSON.stringify({ 'instance.power': powerMs, default: 0 }),
  });
  const instance = await env.provisionedInstance(hypervisor);
  expect((await env.power(instance.id, 'stop')).status).toBe(202);
  const workflowId = (await env.latestOperation(instance.id)).workflow_id;
  const task = await eventually(
    async () => (await listTasksOfWorkflow(env.db, workflowId)).find((t) => t.status === 'running'),
    10_000,
    'the stop to run',
  );
  return { agent, instance, workflowId, task };
}

const runsIn = (agent: { output: string[] }) => taskRuns(agent.output.join('').split('\n'));

describe('one run per step at a time', () => {
  it('a silent agent that comes back stops its superseded run before it starts the retried attempt', async () => {
    const { agent, instance, workflowId } = await stopRunning(1500);
    agent.process.kill('SIGSTOP'); // alive but silent: the heartbeat timeout retries the step
    await eventually(
      async () => (await listTasksOfWorkflow(env.db, workflowId)).length === 2,
      20_000,
      'a second attempt',
    );
    agent.process.kill('SIGCONT');
    await env.temporal.workflow.getHandle(workflowId).result();

    const tasks = await listTasksOfWorkflow(env.db, workflowId);
    expect(tasks.map((t) => [t.attempt, t.status])).toEqual([
      [1, 'abandoned'],
      [2, 'completed'],
    ]);
    // Its open polls were each given the first task again as its lease lapsed: not run again.
    const runs = runsIn(agent).filter((r) => tasks.some((t) => t.id === r.task));
    expect(runs.map((r) => r.task)).toEqual(tasks.map((t) => t.id));
    expect(overlap(runs)).toBe(false);
    expect(agent.output.join('')).toContain('"msg":"task superseded: stopping its run"');
    expect((await findInstance(env.db, instance.id))?.status).toBe('stopped');
  });

  it('a task offered again while its run goes on (its lease lapsed) is not started twice', async () => {
    const { agent, workflowId, task } = await stopRunning(4000);
    agent.process.kill('SIGSTOP');
    const leaseEnd = async () =>
      (
        await env.db
          .selectFrom('agent_tasks')
          .select('lease_expires_at')
          .where('id', '=', task.id)
          .executeTakeFirstOrThrow()
      ).lease_expires_at!.getTime();
    await new Promise((r) => setTimeout(r, 300)); // a report already on its way lands
    const silentFrom = await leaseEnd();
    // Its lease lapses, and an open poll is given the same task again while it cannot act: the
    // lease moves on though the agent sends nothing.
    await eventually(async () => (await leaseEnd()) > silentFrom, 4_000, 'the task leased again');
    agent.process.kill('SIGCONT');
    await eventually(
      () => agent.output.join('').includes('"msg":"task already running here"'),
      10_000,
      'the task offered again',
    );
    await env.temporal.workflow.getHandle(workflowId).result();

    const runs = runsIn(agent).filter((r) => r.task === task.id);
    expect(runs).toHaveLength(1);
    expect((await listTasksOfWorkflow(env.db, workflowId)).map((t) => t.status)).toEqual(['completed']);
  });
});
