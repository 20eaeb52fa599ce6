import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;

beforeAll(async () => {
  env = await startStack({
    agents: true,
    // A long retention: the restore runs while the home node still holds the evacuation's copies,
    // and each move back is taken beside its copy (docs/migration.md, "A move back at once").
    config: {
      MIGRATION_SOURCE_RETENTION_MS: '600000',
      EVACUATION_CHECK_EVERY_MS: '300',
      HYPERVISOR_UNREACHABLE_AFTER_MS: '600000',
    },
  });
});
afterAll(() => env.close());

const call = (method: string, path: string, body?: unknown, key: string | null = env.admin.key) =>
  env.call(key, method, `/admin/cloudsvc${path}`, body);
const application = (method: string, path: string, body?: unknown) =>
  env.call(env.admin.key, method, `/api/application/cloudsvc${path}`, body);
const codeOf = (answer: { body: Body }) => answer.body.errors?.[0]?.code;

/** A node of its own location with `instances` guests, and `targets` hypervisors beside it. */
async function drainable(instances: number, targets = 2) {
  const { id: locationId } = await seed.location(env.db);
  const withAgent = () => env.hypervisorWithAgent({ AGENT_SIM_TRANSFER_MS_PER_GB: '25' }, { locationId });
  const home = await withAgent();
  const others = [];
  for (let i = 0; i < targets; i++) others.push(await withAgent());
  const guests = [];
  for (let i = 0; i < instances; i++) guests.push(await env.provisionedInstance(home.hypervisor));
  return { home, targets: others, guests };
}

const placeOf = (instanceId: string) =>
  env.db
    .selectFrom('instances')
    .select(['hypervisor_id', 'status', 'operation_id'])
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();

const migrationsOf = (instanceIds: string[]) =>
  env.db
    .selectFrom('migrations')
    .select(['id', 'instance_id', 'state'])
    .where('instance_id', 'in', instanceIds)
    .execute();

const evacuationsOf = (hypervisorId: string) =>
  env.db
    .selectFrom('evacuations')
    .select(['id', 'kind', 'state'])
    .where('hypervisor_id', '=', hypervisorId)
    .execute();

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

/** Drains the node; every instance's copy stays on it for the retention window. */
async function evacuated(hypervisorId: string, instanceIds: string[], body: object = { mode: 'AUTO' }) {
  const answer = await call('POST', `/hypervisors/${hypervisorId}/evacuations`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  const done = await ended(answer.body.attributes.uuid);
  expect((await migrationsOf(instanceIds)).map((m) => m.state)).toEqual(instanceIds.map(() => 'COMPLETED'));
  return done;
}

const maintenance = async (hypervisorId: string, enabled: boolean) =>
  expect((await application('POST', `/hypervisors/${hypervisorId}/maintenance`, { enabled })).status).toBe(
    200,
  );

describe('POST /evacuations/{evacuation}/restore', () => {
  it('brings home what the evacuation moved, skipping with reasons one moved since and one deleted; one restore at a time; a second brings nothing more', async () => {
    const { home, targets, guests } = await drainable(5);
    const ids = guests.map((g) => g.id);
    const evacuation = await evacuated(home.hypervisor.id, ids, { mode: 'AUTO', max_parallel: 2 });
    expect(evacuation.progress).toMatchObject({ moved: 5, total: 5 });

    // Still in maintenance: refused, and nothing is recorded or moved.
    const early = await call('POST', `/evacuations/${evacuation.uuid}/restore`);
    expect([early.status, codeOf(early)]).toEqual([409, 'HYPERVISOR_IN_MAINTENANCE']);
    expect(await evacuationsOf(home.hypervisor.id)).toHaveLength(1);
    expect(await migrationsOf(ids)).toHaveLength(5);

    // Meanwhile one moves on to the other target, and one is deleted.
    const [moving, deleting] = [guests[3]!.id, guests[4]!.id];
    const away = (await placeOf(moving)).hypervisor_id;
    const elsewhere = targets.find((t) => t.hypervisor.id !== away)!.hypervisor.id;
    const moved = await call('POST', `/instances/${moving}/migrations`, {
      target_hypervisor_uuid: elsewhere,
      mode: 'AUTO',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(202);
    expect((await application('DELETE', `/instances/${deleting}`)).status).toBe(202);
    await eventually(
      async () =>
        (await placeOf(moving)).hypervisor_id === elsewhere &&
        (await application('GET', `/instances/${deleting}`)).status === 404,
      30_000,
      'one moved on, one deleted',
    );
    await maintenance(home.hypervisor.id, false);

    const both = await Promise.all([
      call('POST', `/evacuations/${evacuation.uuid}/restore`, { max_parallel: 2, reason: 'home again' }),
      call('POST', `/evacuations/${evacuation.uuid}/restore`, { max_parallel: 2, reason: 'home again' }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(codeOf(both.find((a) => a.status === 409)!)).toBe('EVACUATION_RUNNING');
    const restore = both.find((a) => a.status === 202)!.body.attributes;
    expect(restore).toMatchObject({
      kind: 'restore',
      restores: evacuation.uuid,
      hypervisor: { uuid: home.hypervisor.id },
      state: 'running',
      policy: { ...evacuation.policy, max_parallel: 2 },
      reason: 'home again',
      progress: { total: 5 },
    });
    const again = await call('POST', `/evacuations/${evacuation.uuid}/restore`);
    expect([again.status, codeOf(again)]).toEqual([409, 'EVACUATION_RUNNING']);

    const done = await ended(restore.uuid);
    expect(done.progress).toMatchObject({ total: 5, moved: 3, cancelled: 2, failed: 0, blocked: 0 });
    const byInstance = new Map(done.instances.map((i: Body) => [i.instance.uuid, i]));
    expect(byInstance.get(moving)).toMatchObject({
      state: 'cancelled',
      migration_uuid: null,
      reasons: [expect.objectContaining({ code: 'MOVED_SINCE' })],
    });
    expect(byInstance.get(deleting)).toMatchObject({
      state: 'cancelled',
      reasons: [expect.objectContaining({ code: 'INSTANCE_DELETED' })],
    });
    for (const guest of guests.slice(0, 3)) {
      expect(byInstance.get(guest.id)).toMatchObject({
        state: 'moved',
        migration_state: expect.stringMatching(/^(COMPLETED|CLEANING_UP|CLEANED_UP)$/),
        target: { uuid: home.hypervisor.id },
      });
      expect(await placeOf(guest.id)).toEqual({
        hypervisor_id: home.hypervisor.id,
        status: 'running',
        operation_id: null,
      });
    }
    expect((await placeOf(moving)).hypervisor_id).toBe(elsewhere);
    const report = await env.temporal.workflow.getHandle(done.workflow_id).result();
    expect(report).toMatchObject({ state: 'completed', counts: { moved: 3, cancelled: 2 } });

    // A restore is not restored; a second restore of the evacuation finds them home and moves none.
    const ofRestore = await call('POST', `/evacuations/${restore.uuid}/restore`);
    expect([ofRestore.status, codeOf(ofRestore)]).toEqual([409, 'EVACUATION_NOT_RESTORABLE']);
    const before = (await migrationsOf(ids)).length;
    const second = await call('POST', `/evacuations/${evacuation.uuid}/restore`);
    expect(second.status).toBe(202);
    const idle = await ended(second.body.attributes.uuid);
    expect(idle.progress).toMatchObject({ moved: 3, cancelled: 2, total: 5 });
    expect(idle.instances.filter((i: Body) => i.reasons[0]?.code === 'ALREADY_HOME')).toHaveLength(3);
    expect((await migrationsOf(ids)).length).toBe(before);

    const list = await call('GET', `/evacuations?hypervisor=${home.hypervisor.id}`);
    expect(list.body.data.map((e: Body) => [e.attributes.kind, e.attributes.restores])).toEqual([
      ['restore', evacuation.uuid],
      ['restore', evacuation.uuid],
      ['hypervisor', null],
    ]);
  });

  it('refuses while the evacuation runs, while the node is not online, and bad input or keys, changing nothing', async () => {
    const { home, targets, guests } = await drainable(1, 1);
    targets[0]!.agent.armFault('disk.transfer', { mode: 'hang' });
    const started = await call('POST', `/hypervisors/${home.hypervisor.id}/evacuations`, { mode: 'AUTO' });
    const running = started.body.attributes.uuid;
    const path = `/evacuations/${running}/restore`;
    const refused = await call('POST', path);
    expect([refused.status, codeOf(refused)]).toEqual([409, 'EVACUATION_NOT_FINISHED']);
    await call('POST', `/evacuations/${running}/cancel`);
    await ended(running, 'cancelled');

    await maintenance(home.hypervisor.id, false);
    await env.db
      .updateTable('hypervisors')
      .set({ status: 'unreachable' })
      .where('id', '=', home.hypervisor.id)
      .execute();
    const offline = await call('POST', path);
    expect([offline.status, codeOf(offline)]).toEqual([409, 'HYPERVISOR_NOT_ONLINE']);
    await env.db
      .updateTable('hypervisors')
      .set({ status: 'online' })
      .where('id', '=', home.hypervisor.id)
      .execute();

    for (const [body, field] of [
      [{ max_parallel: 0 }, 'max_parallel'],
      [{ mode: 'FAST' }, 'mode'],
      [{ on_failure: 'ignore' }, 'on_failure'],
      [{ extra: 1 }, 'extra'],
    ] as const) {
      const answer = await call('POST', path, body);
      expect([answer.status, answer.body.errors[0].source.field]).toEqual([400, field]);
    }
    expect(codeOf(await call('POST', `/evacuations/${randomUUID()}/restore`))).toBe('SVC-RES-404');
    expect((await call('POST', path, {}, null)).status).toBe(401);
    expect((await call('POST', path, {}, env.client.key)).status).toBe(403);
    expect((await evacuationsOf(home.hypervisor.id)).map((e) => e.kind)).toEqual(['hypervisor']);
    expect((await placeOf(guests[0]!.id)).hypervisor_id).toBe(home.hypervisor.id);
  });

  it('pauses and cancels like a drain: the move under way rolls back, the instances stay; the next restore brings them home', async () => {
    const { home, targets, guests } = await drainable(3, 1);
    const ids = guests.map((g) => g.id);
    const evacuation = await evacuated(home.hypervisor.id, ids);
    await maintenance(home.hypervisor.id, false);
    // The first transfer into the node hangs: the cancel finds that move before its point of no return.
    home.agent.armFault('disk.transfer', { mode: 'hang' });
    const started = await call('POST', `/evacuations/${evacuation.uuid}/restore`, { max_parallel: 1 });
    expect(started.status).toBe(202);
    const restore = started.body.attributes.uuid;
    await showUntil(restore, (e) => e.progress.migrating === 1, 'a move home under way');
    await eventually(
      async () =>
        env.db
          .selectFrom('agent_tasks')
          .select('id')
          .where('hypervisor_id', '=', home.hypervisor.id)
          .where('type', '=', 'disk.transfer')
          .where('leased_at', 'is not', null)
          .executeTakeFirst(),
      30_000,
      'its transfer hanging on the node',
    );
    const paused = await call('POST', `/evacuations/${restore}/pause`, { reason: 'look first' });
    expect([paused.status, paused.body.attributes.state]).toEqual([202, 'paused']);
    const cancelled = await call('POST', `/evacuations/${restore}/cancel`, { reason: 'not tonight' });
    expect(cancelled.status).toBe(202);
    const done = await ended(restore, 'cancelled');
    expect(done.progress).toMatchObject({ cancelled: 3, moved: 0, migrating: 0, total: 3 });
    const rolledBack = done.instances.find((i: Body) => i.migration_uuid);
    expect(rolledBack).toMatchObject({ migration_state: 'ROLLED_BACK', reasons: [{ code: 'CANCELLED' }] });
    for (const id of ids)
      expect(await placeOf(id)).toMatchObject({
        hypervisor_id: targets[0]!.hypervisor.id,
        operation_id: null,
      });

    const next = await call('POST', `/evacuations/${evacuation.uuid}/restore`);
    expect(next.status).toBe(202);
    expect((await ended(next.body.attributes.uuid)).progress).toMatchObject({ moved: 3, total: 3 });
    for (const id of ids) expect((await placeOf(id)).hypervisor_id).toBe(home.hypervisor.id);
  });
});
