import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { stepTiming } from '../../services/workflow-starts.js';
import { createWorker } from '../../worker/worker.js';
import type { PowerInstanceInput } from '../../workflows/power-instance.js';
import { eventually } from '../support/eventually.js';
import { type Stack, startStack } from '../support/stack.js';
import { bundleAlteredWorkflows } from '../workflows/altered-bundle.js';

const run = promisify(execFile);
// The source itself, as `npm run cli` runs it.
const main = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));

let env: Stack;
beforeAll(async () => {
  env = await startStack({ agents: true });
});
afterAll(() => env.close());

async function cli(args: string[], temporalAddress = env.config.TEMPORAL_ADDRESS) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', main, 'workflow:replay', ...args],
      {
        env: { ...process.env, TEMPORAL_ADDRESS: temporalAddress },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A run made by a changed powerInstance (altered-workflows.ts), carrying the instance's search attribute. */
async function alteredRun(instanceId: string): Promise<string> {
  const taskQueue = `altered-${randomUUID()}`;
  const { worker, connection } = await createWorker({
    config: { ...env.config, TEMPORAL_TASK_QUEUE: taskQueue },
    db: env.db,
    bundle: await bundleAlteredWorkflows(),
  });
  const workflowId = `replay-test-${randomUUID()}`;
  const input: PowerInstanceInput = {
    operation: {
      operationId: randomUUID(),
      instanceId,
      hypervisorId: randomUUID(),
      kind: 'stop',
      correlationId: null,
      timing: stepTiming(env.config),
    },
    action: 'stop',
  };
  await worker.runUntil(
    env.temporal.workflow.execute('powerInstance', {
      taskQueue,
      workflowId,
      args: [input],
      searchAttributes: { [SEARCH_ATTRIBUTES.instance]: [instanceId] },
    }),
  );
  await connection.close();
  return workflowId;
}

// Each replay bundles the workflows in the CLI's own process, a few seconds on a busy machine; the
// query test runs three CLI calls, each a process that compiles and bundles (93 s seen on 2 busy cores).
const REPLAY_TIMEOUT_MS = 240_000;

describe('cloudsvc workflow:replay', () => {
  it(
    'replays a finished run, and a run still in progress, on the current code',
    async () => {
      const { hypervisor, agent } = await env.hypervisorWithAgent();
      const instance = await env.provisionedInstance(hypervisor);
      const provision = await env.latestOperation(instance.id);

      const finished = await cli([provision.workflow_id]);
      expect(finished).toMatchObject({ code: 0, stderr: '' });
      expect(finished.stdout).toBe(
        `ok: provisionInstance ${provision.workflow_id} replays on the current code\n`,
      );

      agent.armFault('instance.power', { mode: 'hang' });
      expect((await env.power(instance.id, 'stop')).status).toBe(202);
      const stop = await env.latestOperation(instance.id);
      await eventually(
        async () => (await listTasksOfWorkflow(env.db, stop.workflow_id))[0]?.status === 'running',
        10_000,
        'the stop to run',
      );
      const { runId } = await env.temporal.workflow.getHandle(stop.workflow_id).describe();
      const running = await cli([stop.workflow_id, '--run-id', runId, '--json']);
      expect(running.code).toBe(0);
      expect(JSON.parse(running.stdout)).toEqual({
        workflow_id: stop.workflow_id,
        run_id: runId,
        workflow_type: 'powerInstance',
        ok: true,
      });
      expect((await env.power(instance.id, 'kill')).status).toBe(202);
      await env.operationResult(instance.id);
    },
    REPLAY_TIMEOUT_MS,
  );

  it(
    'reports a run the current code no longer reproduces, with the event, and exits 1',
    async () => {
      // A run made by a changed powerInstance (altered-workflows.ts): what a worker on the current
      // code would meet after a deploy that changed the workflow without patched().
      const workflowId = await alteredRun(randomUUID());
      const { runId } = await env.temporal.workflow.getHandle(workflowId).describe();

      const replayed = await cli([workflowId]);
      expect(replayed.code).toBe(1);
      expect(replayed.stdout).toBe('');
      expect(replayed.stderr).toContain(
        `nondeterminism: powerInstance ${workflowId} run ${runId} does not replay on the current code ` +
          'at event 5 (ActivityTaskScheduled cancelAgentTasksOfWorkflow)',
      );

      const json = await cli([workflowId, '--json']);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({
        workflow_id: workflowId,
        run_id: runId,
        workflow_type: 'powerInstance',
        ok: false,
        nondeterminism: true,
        event: { id: 5, type: 'ActivityTaskScheduled', activity_type: 'cancelAgentTasksOfWorkflow' },
        message: expect.stringContaining('Nondeterminism error'),
      });
    },
    REPLAY_TIMEOUT_MS,
  );

  it(
    'replays every run a visibility query matches, as a table or JSON; exit 1 when one does not replay',
    async () => {
      const { hypervisor } = await env.hypervisorWithAgent();
      const instance = await env.provisionedInstance(hypervisor);
      const query = `${SEARCH_ATTRIBUTES.instance} = '${instance.id}'`;
      await eventually(
        async () => (await cli(['--query', query, '--json'])).stdout.includes('provisionInstance'),
        30_000,
        'listed',
      );
      const good = await cli(['--query', query]);
      expect(good.code, good.stderr).toBe(0);
      expect(good.stdout).toMatch(/^RESULT +TYPE +WORKFLOW ID +RUN ID/);
      expect(good.stdout).toMatch(/\nok +provisionInstance +instance-provision-/);
      expect(good.stdout).toContain('1 run replayed: 1 ok, 0 nondeterministic, 0 failed');

      // A run of the same instance made by a changed powerInstance: the query now finds one that fails.
      const workflowId = await alteredRun(instance.id);
      await eventually(
        async () => (await cli(['--query', query, '--json'])).stdout.includes(workflowId),
        30_000,
        'listed',
      );
      const bad = await cli(['--query', query, '--json']);
      expect(bad.code).toBe(1);
      const verdicts = JSON.parse(bad.stdout) as {
        workflow_id: string;
        ok: boolean;
        nondeterminism?: boolean;
      }[];
      expect(verdicts.map((v) => [v.workflow_id.startsWith('replay-test-'), v.ok]).sort()).toEqual([
        [false, true],
        [true, false],
      ]);
      expect(bad.stderr).toContain(`nondeterminism: powerInstance ${workflowId}`);
      const none = await cli(['--query', `${SEARCH_ATTRIBUTES.instance} = '${randomUUID()}'`]);
      expect([none.code, none.stdout]).toEqual([0, 'No run matches the query.\n']);
      const invalid = await cli(['--query', 'NoSuchAttribute = 1']);
      expect(invalid.code).toBe(2);
      expect(invalid.stderr).toContain('the query is not valid');
      const both = await cli(['some-id', '--query', query]);
      expect(both.code).toBe(2);
    },
    REPLAY_TIMEOUT_MS,
  );

  it('explains bad usage with exit code 2, and an unreachable Temporal with 1', async () => {
    const [missing, two, bogus, unknown, unreachable] = await Promise.all([
      cli([]),
      cli(['a', 'b']),
      cli(['a', '--bogus']),
      cli([`no-such-workflow-${randomUUID()}`]),
      cli(['some-workflow'], '127.0.0.1:1'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('usage: cloudsvc workflow:replay <workflow id>');
    expect(two.code).toBe(2);
    expect(bogus.code).toBe(2);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no workflow no-such-workflow-');
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('cloudsvc workflow:replay failed');
  });
});
