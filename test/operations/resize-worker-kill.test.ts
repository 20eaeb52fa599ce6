import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveCapacity } from '../../db/repositories/hypervisors/placement.js';
import { instanceOperationWorkflowId } from '../../domain/workflow-ids.js';
import { eventually } from '../support/eventually.js';
import { FAST_AGENT_TIMING, type Stack, startStack } from '../support/stack.js';
import { startWorkerProcess } from '../support/worker-process.js';

/**
 * A plan change whose worker dies (SIGKILL) while the hypervisor applies it ends applied, never
 * half: the next worker carries the run on from its history, and the instance's size, its
 * reservation and the guest agree, the change made once.
 */
let t: Stack;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  t = await startStack({ listen: true, config: FAST_AGENT_TIMING });
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await t.close();
});

function startWorker() {
  const worker = startWorkerProcess(t.config, FAST_AGENT_TIMING);
  workers.push(worker.child);
  return worker;
}

describe('a plan change whose worker is killed mid-way', () => {
  it('is applied once by the next worker: size, reservation and guest agree', {
    timeout: 120_000,
  }, async () => {
    let worker = startWorker();
    await eventually(() => worker.output.join('').includes('worker running'), 60_000, 'the worker');
    // The change takes long enough on the hypervisor for the worker to die under it.
    const { hypervisor, agent } = await t.hypervisorWithAgent({
      AGENT_SIM_LATENCY_MS: '{"default":0,"instance.resize":3000}',
    });
    const instance = await t.provisionedInstance(hypervisor);
    await reserveCapacity(t.db, {
      hypervisorId: hypervisor.id,
      instanceId: instance.id,
      purpose: 'instance',
      resources: { cpu_cores: instance.cpu_cores, memory_mb: instance.memory_mb, disk_mb: instance.disk_mb },
    });

    const answer = await t.call(
      t.admin,
      'POST',
      `/api/application/cloudsvc/instances/${instance.id}/resize`,
      {
        cpu_cores: instance.cpu_cores + 1,
      },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const operationId: string = answer.body.attributes.operation_uuid;
    await eventually(
      async () =>
        (await t.db
          .selectFrom('agent_tasks')
          .select('id')
          .where('type', '=', 'instance.resize')
          .where('status', 'in', ['leased', 'running'])
          .where('workflow_id', '=', instanceOperationWorkflowId('resize', instance.id, operationId))
          .executeTakeFirst()) ?? undefined,
      30_000,
      'the hypervisor applying the change',
    );
    const killed = new Promise((r) => worker.child.once('exit', r));
    worker.child.kill('SIGKILL');
    await killed;
    worker = startWorker();

    const operation = await eventually(
      async () => {
        const row = await t.db
          .selectFrom('instance_operations')
          .select(['state', 'outcome'])
          .where('id', '=', operationId)
          .executeTakeFirstOrThrow();
        return row.state === 'running' ? undefined : row;
      },
      90_000,
      'the change to end',
    );
    expect(operation.state, JSON.stringify(operation.outcome)).toBe('succeeded');
    const row = await t.db
      .selectFrom('instances')
      .select(['cpu_cores', 'operation_id', 'status'])
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ cpu_cores: instance.cpu_cores + 1, operation_id: null, status: 'running' });
    const held = await t.db
      .selectFrom('reservations')
      .select('cpu_cores')
      .where('instance_id', '=', instance.id)
      .where('purpose', '=', 'instance')
      .where('released_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(held.cpu_cores).toBe(instance.cpu_cores + 1);
    const state = agent.hypervisor();
    expect(state.instances[instance.id]!.cpu_cores).toBe(instance.cpu_cores + 1);
    expect(
      state.applied.filter((a) => a.type === 'instance.resize' && a.instance_id === instance.id),
    ).toHaveLength(1);
  });
});
