import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceUserQuotas } from '../../db/repositories/accounts/user-quotas.js';
import { takeMoveLease } from '../../db/repositories/moves/move-leases.js';
import { UNLIMITED } from '../../domain/quotas.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { instanceOperationWorkflowId } from '../../domain/workflow-ids.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';

/**
 * Plan changes through the Client API (and the administrator's through the Application API),
 * with real in-process agents on the simulated driver: after every change the instance's size,
 * the room its reservation holds and the hypervisor's guest agree; a refused or failed change
 * leaves all three, and the instance's status, as they were.
 */
let t: BackupStack;
let plans: Record<
  'small' | 'hot' | 'wide' | 'narrow' | 'hidden' | 'apart' | 'elsewhere',
  { code: string; id: string }
>;
const GROUP = `std-${randomUUID().slice(0, 6)}`;

beforeAll(async () => {
  t = await startBackupStack();
  const plan = async (
    name: string,
    size: { cpu_cores: number; memory_mb: number; disk_mb: number },
    extra: Record<string, unknown> = {},
  ) => {
    const res = await t.env.admin.call('POST', '/api/application/cloudsvc/plans', {
      code: `${name}-${randomUUID().slice(0, 8)}`,
      name,
      ...size,
      resize_group: GROUP,
      monthly_price_cents: size.cpu_cores * 500,
      monthly_transfer_gb: 1000,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { code: res.body.attributes.code as string, id: res.body.attributes.uuid as string };
  };
  const otherLocation = await seed.location(t.env.db);
  plans = {
    // The plan instances are made with (the stack's own, put in the group).
    small: { code: t.catalog.plan.code, id: t.catalog.plan.id },
    hot: await plan('hot', { cpu_cores: 2, memory_mb: 1024 + 256, disk_mb: 20_480 + 4096 }),
    wide: await plan('wide', { cpu_cores: 4, memory_mb: 4096, disk_mb: 20_480 + 4096 }),
    narrow: await plan('narrow', { cpu_cores: 1, memory_mb: 512, disk_mb: 20_480 + 4096 }),
    hidden: await plan('hidden', { cpu_cores: 2, memory_mb: 2048, disk_mb: 40_960 }, { is_public: false }),
    apart: await plan('apart', { cpu_cores: 2, memory_mb: 2048, disk_mb: 40_960 }, { resize_group: 'other' }),
    elsewhere: await plan(
      'elsewhere',
      { cpu_cores: 2, memory_mb: 2048, disk_mb: 40_960 },
      { location_uuid: otherLocation.id },
    ),
  };
  const patched = await t.env.admin.call('PATCH', `/api/application/cloudsvc/plans/${plans.small.id}`, {
    resize_group: GROUP,
    monthly_price_cents: 500,
  });
  expect(patched.status).toBe(200);
});
afterAll(() => t?.close());

const resize = (id: string, plan: string, extra: Record<string, unknown> = {}) =>
  t.api('POST', `/${id}/resize`, { plan, ...extra });
const preview = (id: string, plan: string) => t.api('GET', `/${id}/resize?plan=${encodeURIComponent(plan)}`);
const admin = (id: string, body: Record<string, unknown>) =>
  t.env.admin.call('POST', `/api/application/cloudsvc/instances/${id}/resize`, body);

/** What the panel and the hypervisor hold: the instance, its reservation, the guest. */
async function sizes(id: string) {
  const instance = await t.env.db
    .selectFrom('instances')
    .select(['cpu_cores', 'memory_mb', 'disk_mb', 'plan_id', 'status', 'operation_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const held = await t.env.db
    .selectFrom('reservations')
    .select(['cpu_cores', 'memory_mb', 'disk_mb'])
    .where('instance_id', '=', id)
    .where('purpose', '=', 'instance')
    .where('released_at', 'is', null)
    .executeTakeFirstOrThrow();
  const guest = t.hostOf(id).hypervisor().instances[id]!;
  return {
    instance,
    held,
    guest: {
      cpu_cores: guest.cpu_cores,
      memory_mb: guest.memory_mb,
      disk_mb: guest.disk_mb,
      power_state: guest.power_state,
      boots: guest.boots ?? 0,
    },
  };
}

const operationsOf = async (id: string) =>
  (await t.env.db.selectFrom('instance_operations').select('id').where('instance_id', '=', id).execute())
    .length;

/** Asks each request, expects its refusal, and finds nothing changed and nothing begun. */
async function refusedWithNothingChanged(id: string, cases: [() => Promise<Body>, number, string][]) {
  const before = await sizes(id);
  const operations = await operationsOf(id);
  for (const [ask, status, code] of cases) {
    const res = await ask();
    expect(res.status, `${code}: ${JSON.stringify(res.body)}`).toBe(status);
    expect(res.body.errors[0].code).toBe(code);
  }
  expect(await sizes(id)).toEqual(before);
  expect(await operationsOf(id)).toBe(operations);
}

describe('a plan change', () => {
  it('hot: the running guest grows without a boot; size, plan and reservation settle; asked again, nothing', async () => {
    const { id } = await t.instance();
    const before = await sizes(id);

    // Without a plan: the instance as it stands.
    expect((await t.api('GET', `/${id}/resize`)).body.attributes).toMatchObject({
      unchanged: true,
      to: { plan: plans.small.code, monthly: { price_cents: 500 } },
    });
    const dry = await preview(id, plans.hot.code);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.attributes).toMatchObject({
      from: {
        cpu_cores: 1,
        memory_mb: 1024,
        disk_mb: 20_480,
        plan: plans.small.code,
        monthly: { price_cents: 500 },
      },
      to: {
        cpu_cores: 2,
        memory_mb: 1280,
        disk_mb: 24_576,
        plan: plans.hot.code,
        monthly: { price_cents: 1000, transfer_gb: 1000 },
      },
      unchanged: false,
      mode: 'hot',
      reasons: [],
      shrinks: [],
      placement: 'fits',
      target: null,
      // The room the hypervisor reported booting the guest with (RESIZE_HOT_MAX_*: 8, 16384).
      hot_ceiling: { cpu_cores: 8, memory_mb: 16_384 },
      operation_uuid: null,
    });
    expect(await sizes(id)).toEqual(before);

    const res = await resize(id, plans.hot.code);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.attributes.operation_uuid).toEqual(expect.any(String));
    await t.settled(id, 'running');
    expect(await sizes(id)).toEqual({
      instance: {
        cpu_cores: 2,
        memory_mb: 1280,
        disk_mb: 24_576,
        plan_id: plans.hot.id,
        status: 'running',
        operation_id: null,
      },
      held: { cpu_cores: 2, memory_mb: 1280, disk_mb: 24_576 },
      guest: {
        cpu_cores: 2,
        memory_mb: 1280,
        disk_mb: 24_576,
        power_state: 'running',
        boots: before.guest.boots,
      },
    });
    expect(await t.latestTask(id)).toMatchObject({ operation: 'resize', state: 'succeeded' });

    const again = await resize(id, plans.hot.code);
    expect(again.status).toBe(200);
    expect(again.body.attributes).toMatchObject({ unchanged: true, operation_uuid: null });
  });

  it('cold: vCPUs and memory shrink with one boot, said up front; a stopped guest stays stopped', async () => {
    const { id } = await t.instance();
    expect((await resize(id, plans.wide.code)).status).toBe(202);
    await t.settled(id, 'running');
    const grown = await sizes(id);

    const dry = (await preview(id, plans.narrow.code)).body.attributes;
    expect(dry).toMatchObject({ mode: 'cold', shrinks: ['cpu_cores', 'memory_mb'], placement: 'fits' });
    expect(dry.reasons).toEqual(expect.arrayContaining(['vCPUs shrink', 'memory shrinks']));

    expect((await resize(id, plans.narrow.code)).status).toBe(202);
    await t.settled(id, 'running');
    expect(await sizes(id)).toEqual({
      instance: { ...grown.instance, cpu_cores: 1, memory_mb: 512, plan_id: plans.narrow.id },
      held: { cpu_cores: 1, memory_mb: 512, disk_mb: 24_576 },
      guest: { ...grown.guest, cpu_cores: 1, memory_mb: 512, boots: grown.guest.boots + 1 },
    });

    expect((await t.api('POST', `/${id}/power`, { action: 'stop' })).status).toBe(202);
    await t.settled(id, 'stopped');
    expect((await preview(id, plans.wide.code)).body.attributes).toMatchObject({
      mode: 'cold',
      reasons: ['the instance is not running'],
    });
    expect((await resize(id, plans.wide.code)).status).toBe(202);
    await t.settled(id, 'stopped');
    expect((await sizes(id)).guest).toMatchObject({ cpu_cores: 4, memory_mb: 4096, power_state: 'stopped' });
  });

  it('refuses each bad input with its code, changing nothing', async () => {
    const { id } = await t.instance();
    await refusedWithNothingChanged(id, [
      [() => resize(id, 'no-such-plan'), 400, 'RESIZE_PLAN_UNKNOWN'],
      [() => preview(id, 'no-such-plan'), 400, 'RESIZE_PLAN_UNKNOWN'],
      [() => resize(id, plans.hidden.code), 400, 'RESIZE_PLAN_UNKNOWN'],
      [() => resize(id, plans.elsewhere.code), 409, 'RESIZE_PLAN_OTHER_LOCATION'],
      [() => preview(id, plans.elsewhere.code), 409, 'RESIZE_PLAN_OTHER_LOCATION'],
      [() => resize(id, plans.apart.code), 409, 'RESIZE_PLAN_NOT_ALLOWED'],
      [() => resize(id, 'Not A Code'), 400, 'SVC-REQ-400'],
      [() => t.api('POST', `/${id}/resize`, { plan: plans.hot.code, extra: 1 }), 400, 'SVC-REQ-400'],
      [() => t.api('POST', `/${id}/resize`, {}), 400, 'SVC-REQ-400'],
      [
        () => t.env.stranger.call('POST', `/api/client/cloud/${id}/resize`, { plan: plans.hot.code }),
        404,
        'SVC-RES-404',
      ],
      [
        () => t.env.stranger.call('GET', `/api/client/cloud/${id}/resize?plan=${plans.hot.code}`),
        404,
        'SVC-RES-404',
      ],
      [
        () => t.env.call(null, 'POST', `/api/client/cloud/${id}/resize`, { plan: plans.hot.code }),
        401,
        'SVC-AUTH-401',
      ],
      [() => resize(randomUUID(), plans.hot.code), 404, 'SVC-RES-404'],
      [() => admin(id, { plan: plans.hot.code, cpu_cores: 2 }), 400, 'SVC-REQ-400'],
      [() => admin(id, {}), 400, 'SVC-REQ-400'],
    ]);

    // A grown disk never shrinks back.
    expect((await resize(id, plans.hot.code)).status).toBe(202);
    await t.settled(id, 'running');
    await refusedWithNothingChanged(id, [
      [() => resize(id, plans.small.code), 409, 'RESIZE_DISK_SHRINK'],
      [() => preview(id, plans.small.code), 409, 'RESIZE_DISK_SHRINK'],
      [() => admin(id, { disk_mb: 20_480 }), 409, 'RESIZE_DISK_SHRINK'],
    ]);

    // Suspended: the customer is refused, the administrator's dry run still answers.
    expect((await t.env.admin.call('POST', `/api/application/cloudsvc/instances/${id}/suspend`)).status).toBe(
      202,
    );
    await t.settled(id, 'stopped');
    await refusedWithNothingChanged(id, [
      [() => resize(id, plans.wide.code), 409, 'INSTANCE_SUSPENDED'],
      [() => preview(id, plans.wide.code), 409, 'INSTANCE_SUSPENDED'],
    ]);
    expect((await admin(id, { plan: plans.wide.code, dry_run: true })).status).toBe(200);
    expect(
      (await t.env.admin.call('POST', `/api/application/cloudsvc/instances/${id}/unsuspend`)).status,
    ).toBe(200);

    // Under a move's lease.
    await takeMoveLease(t.env.db, { instanceId: id, moveId: randomUUID(), holder: 'test', ttlMs: 60_000 });
    try {
      await refusedWithNothingChanged(id, [
        [() => resize(id, plans.wide.code), 409, 'INSTANCE_MIGRATING'],
        [() => admin(id, { plan: plans.wide.code }), 409, 'INSTANCE_MIGRATING'],
      ]);
    } finally {
      await t.env.db.deleteFrom('move_leases').where('instance_id', '=', id).execute();
    }
  });

  it('past a quota: refused with QUOTA_EXCEEDED naming it, nothing changed', async () => {
    const { id } = await t.instance();
    const userId = t.env.client.id;
    const cores = await t.env.db
      .selectFrom('instances')
      .select((eb) => eb.fn.sum<number>('cpu_cores').as('sum'))
      .where('user_id', '=', userId)
      .where('status', '<>', 'deleted')
      .executeTakeFirstOrThrow();
    await replaceUserQuotas(t.env.db, userId, { ...UNLIMITED, cpu_cores: Number(cores.sum) });
    try {
      await refusedWithNothingChanged(id, [
        [() => resize(id, plans.hot.code), 409, 'QUOTA_EXCEEDED'],
        [() => preview(id, plans.hot.code), 409, 'QUOTA_EXCEEDED'],
      ]);
      const refused = await resize(id, plans.hot.code);
      expect(refused.body.errors[0].meta).toMatchObject({ resource: 'cpu_cores', requested: 1 });
      // Shrinking is never held to a quota.
      expect((await resize(id, plans.narrow.code)).status).toBe(202);
      await t.settled(id, 'running');
    } finally {
      await replaceUserQuotas(t.env.db, userId, UNLIMITED);
    }
  });

  it('a hypervisor step that fails rolls back: the guest, the size and the room as they were, the task saying why', async () => {
    const { id, agent } = await t.instance();
    const before = await sizes(id);

    agent.armFault('instance.resize', { mode: 'fail-permanently' });
    expect((await resize(id, plans.hot.code)).status).toBe(202);
    await t.settled(id, 'running');
    expect(await sizes(id)).toEqual(before);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'resize', state: 'failed' });

    // The guest grew, then its disk could not: the guest is given its old size back.
    agent.armFault('disk.resize', { mode: 'fail-permanently' });
    expect((await resize(id, plans.hot.code)).status).toBe(202);
    await t.settled(id, 'running');
    const after = await sizes(id);
    expect({ ...after, guest: { ...after.guest, boots: before.guest.boots } }).toEqual(before);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'resize', state: 'failed' });

    // A ceiling the panel holds that the guest does not have: the hypervisor refuses it hot.
    await t.env.db
      .updateTable('instances')
      .set({ hot_ceiling_cpu_cores: 64, hot_ceiling_memory_mb: 65_536 })
      .where('id', '=', id)
      .execute();
    const beyond = await admin(id, { cpu_cores: 16 });
    expect(beyond.status, JSON.stringify(beyond.body)).toBe(202);
    expect(beyond.body.attributes.mode).toBe('hot');
    await t.settled(id, 'running');
    const refused = await sizes(id);
    expect(refused.instance).toEqual(after.instance);
    expect(refused.held).toEqual(after.held);
    const task = await t.latestTask(id);
    expect(task).toMatchObject({ operation: 'resize', state: 'failed' });
    expect(JSON.stringify(task)).toContain('HOT_RESIZE_REFUSED');
  });

  it('two at once on one instance: one runs, the other is refused with the operations conflict', async () => {
    const { id } = await t.instance();
    const both = await Promise.all([resize(id, plans.hot.code), resize(id, plans.wide.code)]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(both.find((r) => r.status === 409)!.body.errors[0].code).toBe('SVC-OP-409');
    const won = both.find((r) => r.status === 202)!.body.attributes.to;
    await t.settled(id, 'running');
    const settled = await sizes(id);
    expect(settled.instance).toMatchObject({ cpu_cores: won.cpu_cores, memory_mb: won.memory_mb });
    expect(settled.held).toEqual({
      cpu_cores: won.cpu_cores,
      memory_mb: won.memory_mb,
      disk_mb: won.disk_mb,
    });
  });

  it('two orders of one owner at the quota at once: one wins', async () => {
    const [a, b] = [await t.instance(), await t.instance()];
    const userId = t.env.client.id;
    const cores = await t.env.db
      .selectFrom('instances')
      .select((eb) => eb.fn.sum<number>('cpu_cores').as('sum'))
      .where('user_id', '=', userId)
      .where('status', '<>', 'deleted')
      .executeTakeFirstOrThrow();
    // Room for one more vCPU: each change asks one.
    await replaceUserQuotas(t.env.db, userId, { ...UNLIMITED, cpu_cores: Number(cores.sum) + 1 });
    try {
      const both = await Promise.all([resize(a.id, plans.hot.code), resize(b.id, plans.hot.code)]);
      expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
      expect(both.find((r) => r.status === 409)!.body.errors[0].code).toBe('QUOTA_EXCEEDED');
      await t.settled(a.id, 'running');
      await t.settled(b.id, 'running');
      const grown = [(await sizes(a.id)).instance.cpu_cores, (await sizes(b.id)).instance.cpu_cores].sort();
      expect(grown).toEqual([1, 2]);
    } finally {
      await replaceUserQuotas(t.env.db, userId, UNLIMITED);
    }
  });

  it('an administrator’s own size, its dry run, and a host without the room: the verdict names the best target', async () => {
    const { id } = await t.instance();
    const before = await sizes(id);
    const dry = await admin(id, { cpu_cores: 3, memory_mb: 1024 + 512, dry_run: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.attributes).toMatchObject({
      to: { cpu_cores: 3, memory_mb: 1536, disk_mb: 20_480, plan: plans.small.code },
      mode: 'hot',
      placement: 'fits',
      operation_uuid: null,
    });
    expect(await sizes(id)).toEqual(before);

    // The instance's host has no core left; the location's other one has.
    const hostId = (
      await t.env.db
        .selectFrom('instances')
        .select('hypervisor_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).hypervisor_id!;
    const other = t.hosts.find((h) => h.hypervisor.id !== hostId)!.hypervisor;
    const held = await t.env.db
      .selectFrom('reservations')
      .select((eb) => eb.fn.sum<number>('cpu_cores').as('sum'))
      .where('hypervisor_id', '=', hostId)
      .where('released_at', 'is', null)
      .executeTakeFirstOrThrow();
    await t.env.db
      .updateTable('hypervisors')
      .set({ cpu_cores: Number(held.sum) })
      .where('id', '=', hostId)
      .execute();
    try {
      const needsMove = await admin(id, { cpu_cores: 2, dry_run: true });
      expect(needsMove.body.attributes).toMatchObject({
        placement: 'move',
        target: { uuid: other.id, name: other.name },
        move_allowed: false,
      });
      expect(needsMove.body.attributes.shortfall[0]).toMatch(/CPU cores/);
      const customerView = (await preview(id, plans.hot.code)).body.attributes;
      expect(customerView).toMatchObject({ placement: 'move', target: null, shortfall: [] });
      await refusedWithNothingChanged(id, [
        [() => admin(id, { cpu_cores: 2 }), 409, 'RESIZE_NEEDS_MOVE'],
        [() => resize(id, plans.hot.code), 409, 'RESIZE_NEEDS_MOVE'],
      ]);
      // A disk grown alone needs no core.
      expect((await admin(id, { disk_mb: 20_480 + 1024 })).status).toBe(202);
      await t.settled(id, 'running');
      expect((await sizes(id)).guest.disk_mb).toBe(20_480 + 1024);
    } finally {
      await t.env.db.updateTable('hypervisors').set({ cpu_cores: 32 }).where('id', '=', hostId).execute();
    }
  });

  /** The instance's host made full (no core free), the location's other host returned; put back after. */
  async function withFullHost<T>(id: string, run: (other: { id: string; name: string }) => Promise<T>) {
    const hostId = (
      await t.env.db
        .selectFrom('instances')
        .select('hypervisor_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).hypervisor_id!;
    const held = await t.env.db
      .selectFrom('reservations')
      .select((eb) => eb.fn.sum<number>('cpu_cores').as('sum'))
      .where('hypervisor_id', '=', hostId)
      .where('released_at', 'is', null)
      .executeTakeFirstOrThrow();
    await t.env.db
      .updateTable('hypervisors')
      .set({ cpu_cores: Number(held.sum) })
      .where('id', '=', hostId)
      .execute();
    try {
      return await run(t.hosts.find((h) => h.hypervisor.id !== hostId)!.hypervisor);
    } finally {
      await t.env.db.updateTable('hypervisors').set({ cpu_cores: 32 }).where('id', '=', hostId).execute();
    }
  }

  const activeHolds = (id: string) =>
    t.env.db
      .selectFrom('reservations')
      .select(['hypervisor_id', 'purpose', 'cpu_cores', 'memory_mb', 'disk_mb'])
      .where('instance_id', '=', id)
      .where('released_at', 'is', null)
      .execute();

  const runsOf = async (id: string) => {
    const ids: string[] = [];
    for await (const run of t.env.temporal.workflow.list({
      query: `${SEARCH_ATTRIBUTES.instance} = '${id}'`,
    }))
      ids.push(run.workflowId);
    return ids;
  };

  it('moves first where its host lacks the room: one operation for the asker, two runs found by the instance', async () => {
    const { id } = await t.instance();
    await withFullHost(id, async (other) => {
      // A customer's change may not move while RESIZE_CUSTOMER_MOVES is off.
      const customers = await resize(id, plans.hot.code, { allow_move: true });
      expect(customers.status).toBe(409);
      expect(customers.body.errors[0].code).toBe('RESIZE_NEEDS_MOVE');

      const res = await admin(id, { plan: plans.hot.code, allow_move: true });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.attributes).toMatchObject({
        placement: 'move',
        move_allowed: true,
        target: { uuid: other.id },
      });
      const operationId: string = res.body.attributes.operation_uuid;
      const operation = await eventually(
        async () => {
          const row = await t.env.db
            .selectFrom('instance_operations')
            .select(['state', 'kind', 'outcome'])
            .where('id', '=', operationId)
            .executeTakeFirst();
          return row && row.state !== 'running' ? row : undefined;
        },
        60_000,
        'the resize after the move',
      );
      expect(operation, JSON.stringify(operation.outcome)).toMatchObject({
        state: 'succeeded',
        kind: 'resize',
      });
      await t.settled(id, 'running');
      const instance = await t.env.db
        .selectFrom('instances')
        .select(['hypervisor_id', 'cpu_cores', 'memory_mb', 'disk_mb', 'plan_id'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(instance).toEqual({
        hypervisor_id: other.id,
        cpu_cores: 2,
        memory_mb: 1280,
        disk_mb: 24_576,
        plan_id: plans.hot.id,
      });
      expect(await activeHolds(id)).toEqual([
        { hypervisor_id: other.id, purpose: 'instance', cpu_cores: 2, memory_mb: 1280, disk_mb: 24_576 },
      ]);
      const guest = t.hosts.find((h) => h.hypervisor.id === other.id)!.agent.hypervisor().instances[id]!;
      expect(guest).toMatchObject({ cpu_cores: 2, memory_mb: 1280, disk_mb: 24_576, power_state: 'running' });

      const migration = await t.env.db
        .selectFrom('migrations')
        .select(['workflow_id', 'state'])
        .where('instance_id', '=', id)
        .executeTakeFirstOrThrow();
      const resizeRun = instanceOperationWorkflowId('resize', id, operationId);
      await eventually(
        async () => {
          const runs = await runsOf(id);
          return runs.includes(migration.workflow_id) && runs.includes(resizeRun) ? runs : undefined;
        },
        20_000,
        'both runs listed by the instance',
      );
    });
  });

  it('a move that fails rolls back, and the change with it: nothing held, the instance where and as it was', async () => {
    const { id } = await t.instance();
    const before = await sizes(id);
    const holdsBefore = await activeHolds(id);
    await withFullHost(id, async (other) => {
      const target = t.hosts.find((h) => h.hypervisor.id === other.id)!.agent;
      target.armFault('migration.prepare_target', { mode: 'fail-permanently', times: 1 });
      const res = await admin(id, { plan: plans.hot.code, allow_move: true });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const run = t.env.temporal.workflow.getHandle(
        instanceOperationWorkflowId('resize', id, res.body.attributes.operation_uuid),
      );
      await expect(run.result()).rejects.toThrow();
      const migration = await eventually(
        async () => {
          const row = await t.env.db
            .selectFrom('migrations')
            .select('state')
            .where('instance_id', '=', id)
            .executeTakeFirst();
          return row && row.state === 'ROLLED_BACK' ? row : undefined;
        },
        30_000,
        'the move rolled back',
      );
      expect(migration.state).toBe('ROLLED_BACK');
      await t.settled(id, 'running');
      expect(await sizes(id)).toEqual(before);
      expect(await activeHolds(id)).toEqual(holdsBefore);
      const kinds = await t.env.db
        .selectFrom('instance_operations')
        .select('kind')
        .where('instance_id', '=', id)
        .execute();
      expect(kinds.map((k) => k.kind)).not.toContain('resize');
    });
  });
});
