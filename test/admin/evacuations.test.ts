import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { startEvacuation } from '../../services/evacuations/start.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;

beforeAll(async () => {
  env = await startStack({
    agents: true,
    // Agents heartbeat once a third of this (200 s): none in a test, so a target marked unreachable stays so.
    config: {
      MIGRATION_SOURCE_RETENTION_MS: '300',
      EVACUATION_CHECK_EVERY_MS: '300',
      HYPERVISOR_UNREACHABLE_AFTER_MS: '600000',
    },
  });
});
afterAll(() => env.close());

const call = (method: string, path: string, body?: unknown, key: string | null = env.admin.key) =>
  env.call(key, method, `/admin/cloudsvc${path}`, body);
const codeOf = (answer: { body: Body }) => answer.body.errors?.[0]?.code;

/** A node of its own location with `instances` guests, and `targets` hypervisors beside it (each ~1 s per 40 GB move). */
async function drainable(instances: number, targets = 2, agentEnv: Record<string, string> = {}) {
  const { id: locationId } = await seed.location(env.db);
  const withAgent = () =>
    env.hypervisorWithAgent({ AGENT_SIM_TRANSFER_MS_PER_GB: '25', ...agentEnv }, { locationId });
  const source = await withAgent();
  const others = [];
  for (let i = 0; i < targets; i++) others.push(await withAgent());
  const guests = [];
  for (let i = 0; i < instances; i++) guests.push(await env.provisionedInstance(source.hypervisor));
  return { source, targets: others, guests };
}

const bindToHost = (instanceId: string) =>
  env.db
    .updateTable('instances')
    .set({ host_requirements: JSON.stringify(['gpu_passthrough']) })
    .where('id', '=', instanceId)
    .execute();

const placeOf = async (instanceId: string) =>
  env.db
    .selectFrom('instances')
    .select(['hypervisor_id', 'status', 'operation_id'])
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();

const migrationsOf = (instanceIds: string[]) =>
  env.db
    .selectFrom('migrations')
    .select(['id', 'instance_id', 'target_hypervisor_id', 'state', 'created_at'])
    .where('instance_id', 'in', instanceIds)
    .execute();

async function started(hypervisorId: string, body: object) {
  const answer = await call('POST', `/hypervisors/${hypervisorId}/evacuations`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return answer.body.attributes as Body;
}

async function showUntil(evacuationId: string, test: (e: Body) => boolean, what: string, ms = 60_000) {
  return eventually(
    async () => {
      const { body } = await call('GET', `/evacuations/${evacuationId}`);
      return test(body.attributes) ? (body.attributes as Body) : undefined;
    },
    ms,
    what,
  );
}
const ended = (evacuationId: string, state = 'completed') =>
  showUntil(evacuationId, (e) => e.state === state, `evacuation ${state}`);

/** The most migrations that were under way at once, overall and into one target. */
async function peaks(instanceIds: string[]) {
  const rows = await env.db
    .selectFrom('migrations as m')
    .innerJoin('migration_events as e', 'e.migration_id', 'm.id')
    .select(['m.id', 'm.target_hypervisor_id', 'e.state', 'e.at'])
    .where('m.instance_id', 'in', instanceIds)
    .execute();
  const spans = new Map<string, { target: string; from: number; to: number }>();
  for (const r of rows) {
    const span = spans.get(r.id) ?? { target: r.target_hypervisor_id, from: Infinity, to: -Infinity };
    const at = r.at.getTime();
    if (r.state === 'REQUESTED') span.from = Math.min(span.from, at);
    if (['COMPLETED', 'ROLLED_BACK'].includes(r.state)) span.to = Math.max(span.to, at);
    spans.set(r.id, span);
  }
  const all = [...spans.values()];
  const overlapping = (among: typeof all) =>
    Math.max(0, ...among.map((s) => among.filter((o) => o.from <= s.from && s.from < o.to).length));
  const perTarget = Math.max(
    0,
    ...[...new Set(all.map((s) => s.target))].map((t) => overlapping(all.filter((s) => s.target === t))),
  );
  return { overall: overlapping(all), perTarget };
}

describe('POST /hypervisors/{hypervisor}/evacuations/plan', () => {
  it('gives each instance a target and strategy, spread by capacity, lists what cannot move, and changes nothing', async () => {
    const { source, targets, guests } = await drainable(3);
    await bindToHost(guests[2]!.id);
    for (let round = 0; round < 2; round++) {
      const answer = await call('POST', `/hypervisors/${source.hypervisor.id}/evacuations/plan`, {
        mode: 'AUTO',
      });
      expect(answer.status).toBe(200);
      expect(answer.body.object).toBe('evacuation_plan');
      const plan = answer.body.attributes;
      expect(plan).toMatchObject({ hypervisor: { uuid: source.hypervisor.id }, mode: 'AUTO', instances: 3 });
      expect(plan.moves).toHaveLength(2);
      expect(new Set(plan.moves.map((m: Body) => m.target.uuid))).toEqual(
        new Set(targets.map((t) => t.hypervisor.id)),
      );
      expect(plan.moves.every((m: Body) => m.strategy === 'live')).toBe(true);
      expect(plan.unmovable).toEqual([
        {
          instance: { uuid: guests[2]!.id, name: guests[2]!.name },
          blockers: [expect.objectContaining({ code: 'HOST_BOUND_GPU_PASSTHROUGH' })],
        },
      ]);
      expect(plan.targets).toHaveLength(2);
    }
    expect((await findHypervisor(env.db, source.hypervisor.id))?.maintenance).toBe(false);
    expect(await migrationsOf(guests.map((g) => g.id))).toEqual([]);
    const list = await call('GET', `/evacuations?hypervisor=${source.hypervisor.id}`);
    expect(list.body.data).toEqual([]);
  });

  it('refuses bad input (400), an unknown hypervisor (404), and any key but an administrator’s', async () => {
    const { source } = await drainable(0, 0);
    const path = `/hypervisors/${source.hypervisor.id}/evacuations`;
    for (const [suffix, body, field] of [
      ['/plan', {}, 'mode'],
      ['/plan', { mode: 'FAST' }, 'mode'],
      ['', { mode: 'AUTO', max_parallel: 0 }, 'max_parallel'],
      ['', { mode: 'AUTO', on_failure: 'ignore' }, 'on_failure'],
      ['', { mode: 'AUTO', max_attempts: 11 }, 'max_attempts'],
      ['', { mode: 'AUTO', extra: 1 }, 'extra'],
    ] as const) {
      const answer = await call('POST', `${path}${suffix}`, body);
      expect([answer.status, answer.body.errors[0].source.field]).toEqual([400, field]);
    }
    for (const suffix of ['/plan', '']) {
      const unknown = await call('POST', `/hypervisors/${randomUUID()}/evacuations${suffix}`, {
        mode: 'AUTO',
      });
      expect([unknown.status, codeOf(unknown)]).toEqual([404, 'SVC-RES-404']);
      expect((await call('POST', `${path}${suffix}`, { mode: 'AUTO' }, null)).status).toBe(401);
      expect((await call('POST', `${path}${suffix}`, { mode: 'AUTO' }, env.client.key)).status).toBe(403);
    }
    for (const path of [`/evacuations/${randomUUID()}`]) {
      expect(codeOf(await call('GET', path))).toBe('SVC-RES-404');
      expect(codeOf(await call('POST', `${path}/pause`))).toBe('SVC-RES-404');
    }
    expect((await findHypervisor(env.db, source.hypervisor.id))?.maintenance).toBe(false);
  });
});

describe('an evacuation', () => {
  it('moves every instance that can, within its limits; one blocked, one failing mid-way skipped', async () => {
    const { source, targets, guests } = await drainable(6);
    await bindToHost(guests[5]!.id);
    // The first transfer checked on the first target fails: that move rolls back.
    targets[0]!.agent.armFault('disk.verify', { mode: 'fail-permanently' });
    const evacuation = await started(source.hypervisor.id, {
      mode: 'AUTO',
      max_parallel: 2,
      max_parallel_per_target: 1,
      reason: 'kernel upgrade',
    });
    expect(evacuation).toMatchObject({
      hypervisor: { uuid: source.hypervisor.id },
      state: 'running',
      policy: {
        mode: 'AUTO',
        max_parallel: 2,
        max_parallel_per_target: 1,
        on_failure: 'skip',
        max_attempts: 3,
      },
      reason: 'kernel upgrade',
      progress: { total: 6 },
      finished_at: null,
    });
    expect(evacuation.requested_by).toMatch(/^admin:/);
    expect((await findHypervisor(env.db, source.hypervisor.id))?.maintenance).toBe(true);

    const done = await ended(evacuation.uuid);
    expect(done.progress).toMatchObject({
      total: 6,
      moved: 4,
      failed: 1,
      blocked: 1,
      pending: 0,
      migrating: 0,
    });
    expect(done.finished_at).toMatch(/Z$/);
    const byInstance = new Map(done.instances.map((i: Body) => [i.instance.uuid, i]));
    expect(byInstance.get(guests[5]!.id)).toMatchObject({
      state: 'blocked',
      migration_uuid: null,
      reasons: [expect.objectContaining({ code: 'HOST_BOUND_GPU_PASSTHROUGH' })],
    });
    const failed = done.instances.find((i: Body) => i.state === 'failed');
    expect(failed).toMatchObject({
      migration_state: 'ROLLED_BACK',
      reasons: [{ code: 'SIMULATED_FAILURE' }],
    });
    for (const guest of guests) {
      const item = byInstance.get(guest.id) as Body;
      const place = await placeOf(guest.id);
      if (item.state === 'moved') {
        expect(targets.map((t) => t.hypervisor.id)).toContain(place.hypervisor_id);
        expect(place.hypervisor_id).toBe(item.target.uuid);
      } else expect(place.hypervisor_id).toBe(source.hypervisor.id);
      expect(place).toMatchObject({ status: 'running', operation_id: null });
    }
    expect(await peaks(guests.map((g) => g.id))).toEqual({ overall: 2, perTarget: 1 });
    const report = await env.temporal.workflow.getHandle(done.workflow_id).result();
    expect(report).toMatchObject({ state: 'completed', counts: { moved: 4, failed: 1, blocked: 1 } });
    expect(report.not_moved.map((n: Body) => n.state).sort()).toEqual(['blocked', 'failed']);
    // The node stays in maintenance for the administrator to take down.
    expect((await findHypervisor(env.db, source.hypervisor.id))?.maintenance).toBe(true);
  });

  it('is one at a time per node: of two started at once one is refused 409; once ended, the next drains what is left', async () => {
    const { source, guests } = await drainable(2, 1);
    const path = `/hypervisors/${source.hypervisor.id}/evacuations`;
    const both = await Promise.all([
      call('POST', path, { mode: 'AUTO' }),
      call('POST', path, { mode: 'AUTO' }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(codeOf(both.find((a) => a.status === 409)!)).toBe('EVACUATION_RUNNING');
    const first = both.find((a) => a.status === 202)!.body.attributes;
    const again = await call('POST', path, { mode: 'AUTO' });
    expect([again.status, codeOf(again)]).toEqual([409, 'EVACUATION_RUNNING']);
    expect((await ended(first.uuid)).progress).toMatchObject({ moved: 2, total: 2 });

    const second = await started(source.hypervisor.id, { mode: 'AUTO' });
    expect((await ended(second.uuid)).progress).toMatchObject({ total: 0 });
    expect((await migrationsOf(guests.map((g) => g.id))).length).toBe(2);
    const list = await call('GET', `/evacuations?hypervisor=${source.hypervisor.id}&state=completed`);
    expect(list.body.data.map((e: Body) => e.attributes.uuid)).toEqual([second.uuid, first.uuid]);
  });

  it('pauses (the move under way finishes, none starts), resumes, and cancels: the move under way rolls back', async () => {
    const { source, targets, guests } = await drainable(4, 1);
    const evacuation = await started(source.hypervisor.id, { mode: 'AUTO', max_parallel: 1 });
    await showUntil(evacuation.uuid, (e) => e.progress.migrating === 1, 'a move under way');
    const paused = await call('POST', `/evacuations/${evacuation.uuid}/pause`, { reason: 'look first' });
    expect([paused.status, paused.body.attributes.state]).toEqual([202, 'paused']);
    const twice = await call('POST', `/evacuations/${evacuation.uuid}/pause`);
    expect([twice.status, codeOf(twice)]).toEqual([409, 'EVACUATION_STATE_CONFLICT']);
    await showUntil(
      evacuation.uuid,
      (e) => e.progress.moved === 1 && e.progress.migrating === 0,
      'the move done',
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect((await migrationsOf(guests.map((g) => g.id))).length).toBe(1);
    expect((await call('GET', `/evacuations/${evacuation.uuid}`)).body.attributes.state).toBe('paused');

    // The next move hangs in its transfer: the cancel finds it before its point of no return.
    targets[0]!.agent.armFault('disk.transfer', { mode: 'hang' });
    const resumed = await call('POST', `/evacuations/${evacuation.uuid}/resume`);
    expect([resumed.status, resumed.body.attributes.state]).toEqual([202, 'running']);
    await showUntil(evacuation.uuid, (e) => e.progress.migrating === 1, 'the next move under way');
    const cancelled = await call('POST', `/evacuations/${evacuation.uuid}/cancel`, {
      reason: 'changed plans',
    });
    expect(cancelled.status).toBe(202);
    expect(['cancelling', 'cancelled']).toContain(cancelled.body.attributes.state);
    const done = await ended(evacuation.uuid, 'cancelled');
    expect(done.progress).toMatchObject({ moved: 1, cancelled: 3, migrating: 0, pending: 0 });
    const rolledBack = done.instances.find((i: Body) => i.migration_uuid && i.state === 'cancelled');
    expect(rolledBack).toMatchObject({ migration_state: 'ROLLED_BACK', reasons: [{ code: 'CANCELLED' }] });
    for (const guest of guests) expect((await placeOf(guest.id)).operation_id).toBeNull();
    expect((await migrationsOf(guests.map((g) => g.id))).length).toBe(2);

    for (const control of ['cancel', 'resume', 'pause']) {
      const refused = await call('POST', `/evacuations/${evacuation.uuid}/${control}`);
      expect([refused.status, codeOf(refused)]).toEqual([409, 'EVACUATION_FINISHED']);
    }
  });

  it('takes one of two pauses (or cancels) sent at once, and refuses the other with 409', async () => {
    const { source, targets } = await drainable(2, 1);
    targets[0]!.agent.armFault('disk.transfer', { mode: 'hang' });
    const evacuation = await started(source.hypervisor.id, { mode: 'AUTO', max_parallel: 1 });
    for (const control of ['pause', 'cancel']) {
      const both = await Promise.all([
        call('POST', `/evacuations/${evacuation.uuid}/${control}`),
        call('POST', `/evacuations/${evacuation.uuid}/${control}`),
      ]);
      expect(both.map((a) => a.status).sort()).toEqual([202, 409]);
      expect(codeOf(both.find((a) => a.status === 409)!)).toBe('EVACUATION_STATE_CONFLICT');
    }
    expect((await ended(evacuation.uuid, 'cancelled')).progress).toMatchObject({ cancelled: 2 });
  });

  it('cancelled from the Temporal UI (a cancel request to its run), lets the move under way finish and ends cancelled', async () => {
    const { source, guests } = await drainable(3, 1);
    const evacuation = await started(source.hypervisor.id, { mode: 'AUTO', max_parallel: 1 });
    await showUntil(evacuation.uuid, (e) => e.progress.migrating === 1, 'a move under way');
    await env.temporal.workflow.getHandle(evacuation.workflow_id).cancel();
    const done = await ended(evacuation.uuid, 'cancelled');
    expect(done.progress).toMatchObject({ moved: 1, cancelled: 2, migrating: 0 });
    for (const guest of guests) expect((await placeOf(guest.id)).operation_id).toBeNull();
    const report = await env.temporal.workflow.getHandle(evacuation.workflow_id).result();
    expect(report).toMatchObject({ state: 'cancelled', counts: { moved: 1, cancelled: 2 } });
  });

  it('retries a failed move when asked to, and pauses on one when asked to', async () => {
    const { source, targets, guests } = await drainable(1, 1);
    targets[0]!.agent.armFault('disk.verify', { mode: 'fail-permanently' });
    const retried = await started(source.hypervisor.id, { mode: 'AUTO', on_failure: 'retry' });
    const done = await ended(retried.uuid);
    expect(done.instances[0]).toMatchObject({ state: 'moved', attempts: 2 });
    const states = (await migrationsOf([guests[0]!.id])).map((m) => m.state).sort();
    // The committed one may still keep its source's copy for the retention window.
    expect(states).toEqual([expect.stringMatching(/^(COMPLETED|CLEANING_UP|CLEANED_UP)$/), 'ROLLED_BACK']);

    const other = await drainable(2, 1);
    other.targets[0]!.agent.armFault('disk.verify', { mode: 'fail-permanently' });
    const careful = await started(other.source.hypervisor.id, {
      mode: 'AUTO',
      on_failure: 'pause',
      max_parallel: 1,
    });
    const paused = await showUntil(careful.uuid, (e) => e.state === 'paused', 'paused by the failure');
    expect(paused.progress).toMatchObject({ failed: 1, pending: 1 });
    await call('POST', `/evacuations/${careful.uuid}/resume`);
    expect((await ended(careful.uuid)).progress).toMatchObject({ failed: 1, moved: 1 });
  });

  it('puts off an instance while its only target’s agent is unreachable, and blocks it once its tries are spent', async () => {
    const mark = (hypervisorId: string, status: 'unreachable' | 'online') =>
      env.db.updateTable('hypervisors').set({ status }).where('id', '=', hypervisorId).execute();
    const unreachable = expect.arrayContaining([
      expect.objectContaining({ code: 'NO_TARGET', detail: expect.stringContaining('TARGET_UNREACHABLE') }),
    ]);

    const back = await drainable(1, 1);
    await mark(back.targets[0]!.hypervisor.id, 'unreachable');
    const waiting = await started(back.source.hypervisor.id, { mode: 'AUTO', max_attempts: 10 });
    const putOff = await showUntil(waiting.uuid, (e) => e.instances[0].attempts >= 1, 'the instance put off');
    expect(putOff.instances[0]).toMatchObject({ state: 'pending', reasons: unreachable });
    // As its agent's next heartbeat does.
    await mark(back.targets[0]!.hypervisor.id, 'online');
    expect((await ended(waiting.uuid)).instances[0]).toMatchObject({ state: 'moved' });

    const gone = await drainable(1, 1);
    await mark(gone.targets[0]!.hypervisor.id, 'unreachable');
    const tried = await started(gone.source.hypervisor.id, { mode: 'AUTO', max_attempts: 2 });
    const done = await ended(tried.uuid);
    expect(done.instances[0]).toMatchObject({ state: 'blocked', attempts: 2, reasons: unreachable });
    expect(await migrationsOf([gone.guests[0]!.id])).toEqual([]);
  });

  it('holds a move that waits for an operator outside its window, and ends once the operator decided', async () => {
    const { source, targets, guests } = await drainable(2, 1);
    targets[0]!.agent.armFault('migration.start_target', { mode: 'fail-permanently' });
    const evacuation = await started(source.hypervisor.id, { mode: 'AUTO', max_parallel: 1 });
    const waiting = await showUntil(
      evacuation.uuid,
      (e) => e.progress.recovery_required === 1 && e.progress.moved === 1,
      'one moved while the other waits for recovery',
    );
    expect(waiting.state).toBe('running');
    const stuck = waiting.instances.find((i: Body) => i.state === 'recovery_required');
    const decided = await call('POST', `/migrations/${stuck.migration_uuid}/recover`, {
      decision: 'retry',
      reason: 'target host fixed',
    });
    expect(decided.status).toBe(202);
    expect((await ended(evacuation.uuid)).progress).toMatchObject({ moved: 2, recovery_required: 0 });
    for (const guest of guests)
      expect((await placeOf(guest.id)).hypervisor_id).toBe(targets[0]!.hypervisor.id);
  });

  it('with the workflow service unreachable is refused 503 and puts the node back as it was; twice, then one goes', async () => {
    const { source, guests } = await drainable(1, 1);
    const cut = { ...env.deps, config: { ...env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } };
    for (let round = 0; round < 2; round++) {
      const refused = startEvacuation(
        cut,
        { type: 'admin', userId: env.admin.id },
        {
          hypervisorId: source.hypervisor.id,
          policy: { mode: 'AUTO' },
          correlationId: null,
        },
      );
      await expect(refused).rejects.toMatchObject({ code: 'SVC-SYS-503' });
      expect((await findHypervisor(env.db, source.hypervisor.id))?.maintenance).toBe(false);
    }
    const failed = await call('GET', `/evacuations?hypervisor=${source.hypervisor.id}`);
    expect(failed.body.data.map((e: Body) => [e.attributes.state, e.attributes.failure?.code])).toEqual([
      ['failed', 'WORKFLOW_UNAVAILABLE'],
      ['failed', 'WORKFLOW_UNAVAILABLE'],
    ]);
    const evacuation = await started(source.hypervisor.id, { mode: 'AUTO' });
    expect((await ended(evacuation.uuid)).progress).toMatchObject({ moved: 1 });
    expect((await migrationsOf([guests[0]!.id])).length).toBe(1);
  });
});
