import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { FAST_AGENT_TIMING, type Stack, startStack } from '../support/stack.js';
import { startWorkerProcess } from '../support/worker-process.js';

/**
 * An evacuation whose worker dies (SIGKILL, no goodbye) mid-way is finished by the next worker with
 * nothing lost or duplicated: its run, and each migration it started, carry on from their histories,
 * and what moved is read from the records. Two moves per run make it continue as new on the way.
 */
const SETTINGS = {
  ...FAST_AGENT_TIMING,
  MIGRATION_SOURCE_RETENTION_MS: '300',
  EVACUATION_CHECK_EVERY_MS: '300',
  EVACUATION_MOVES_PER_RUN: '2',
};
let t: Stack;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  t = await startStack({ listen: true, config: SETTINGS });
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await t.close();
});

function startWorker() {
  const worker = startWorkerProcess(t.config, SETTINGS);
  workers.push(worker.child);
  return worker;
}

const show = async (evacuationId: string) =>
  (await t.call(t.admin, 'GET', `/admin/cloudsvc/evacuations/${evacuationId}`)).body.attributes as Body;

describe('an evacuation whose worker is killed', () => {
  it('finishes on the next worker, every instance moved once, across runs continued as new', {
    timeout: 240_000,
  }, async () => {
    let worker = startWorker();
    await eventually(() => worker.output.join('').includes('worker running'), 60_000, 'the worker');
    const { id: locationId } = await seed.location(t.db);
    const agentEnv = { AGENT_SIM_TRANSFER_MS_PER_GB: '25' };
    const source = await t.hypervisorWithAgent(agentEnv, { locationId });
    const targets = [
      await t.hypervisorWithAgent(agentEnv, { locationId }),
      await t.hypervisorWithAgent(agentEnv, { locationId }),
    ];
    const guests = [];
    for (let i = 0; i < 6; i++) guests.push(await t.provisionedInstance(source.hypervisor));

    const answer = await t.call(
      t.admin,
      'POST',
      `/admin/cloudsvc/hypervisors/${source.hypervisor.id}/evacuations`,
      {
        mode: 'AUTO',
        max_parallel: 2,
      },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const evacuationId = answer.body.attributes.uuid as string;
    await eventually(async () => (await show(evacuationId)).progress.moved >= 2, 120_000, 'two moved');

    const killed = new Promise((r) => worker.child.once('exit', r));
    worker.child.kill('SIGKILL');
    await killed;
    await new Promise((r) => setTimeout(r, 2000));
    worker = startWorker();

    const done = await eventually(
      async () => {
        const e = await show(evacuationId);
        return e.state === 'completed' ? e : undefined;
      },
      180_000,
      'the evacuation to complete',
    );
    const migrations = await t.db
      .selectFrom('migrations')
      .select(['id', 'instance_id', 'state', 'failed_step', 'failure'])
      .where(
        'instance_id',
        'in',
        guests.map((g) => g.id),
      )
      .execute();
    const notMoved = done.instances.filter((i: Body) => i.state !== 'moved');
    // What a move that did not happen went through, to tell why.
    const unfinished = migrations.filter((m) => m.state !== 'CLEANED_UP');
    const events = unfinished.length
      ? await t.db
          .selectFrom('migration_events')
          .select(['migration_id', 'state', 'detail', 'at'])
          .where(
            'migration_id',
            'in',
            unfinished.map((m) => m.id),
          )
          .orderBy('at')
          .execute()
      : [];
    const why = JSON.stringify({ notMoved, unfinished, events });
    expect(done.progress, why).toMatchObject({ total: 6, moved: 6 });
    expect(migrations.map((m) => m.instance_id).sort()).toEqual(guests.map((g) => g.id).sort());
    const places = await t.db
      .selectFrom('instances')
      .select(['hypervisor_id', 'operation_id', 'status'])
      .where(
        'id',
        'in',
        guests.map((g) => g.id),
      )
      .execute();
    for (const place of places) {
      expect(targets.map((x) => x.hypervisor.id)).toContain(place.hypervisor_id);
      expect(place).toMatchObject({ operation_id: null, status: 'running' });
    }
    const leases = await t.db
      .selectFrom('move_leases')
      .select('instance_id')
      .where(
        'instance_id',
        'in',
        guests.map((g) => g.id),
      )
      .execute();
    expect(leases).toEqual([]);

    // Six moves at two per run: the run continued as new at least twice.
    const runs = await eventually(
      async () => {
        const found = [];
        for await (const run of t.temporal.workflow.list({ query: `WorkflowId = '${done.workflow_id}'` }))
          found.push(run);
        return found.length >= 3 ? found : undefined;
      },
      30_000,
      'the runs of the evacuation',
    );
    expect(runs.filter((r) => r.status.name === 'CONTINUED_AS_NEW').length).toBeGreaterThanOrEqual(2);
  });
});
