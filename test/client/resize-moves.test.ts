import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceUserQuotas } from '../../db/repositories/accounts/user-quotas.js';
import { UNLIMITED } from '../../domain/quotas.js';
import { instanceOperationWorkflowId } from '../../domain/workflow-ids.js';
import { judgeResize } from '../../services/instances/resize-judgement.js';
import { recordMoveThenResize } from '../../services/instances/resize-move.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import { reconcileOperationsOf } from '../support/reconcile.js';

/**
 * Plan changes that move the instance first, at their edges: a crash between the move's record
 * and the start of the change's run, and two changes aiming at the same last room on one target.
 * Real in-process agents on the simulated driver; the instance's size, where it is, the room held
 * for it and the guest agree after each.
 */
let t: BackupStack;
let hot: { code: string; id: string };

beforeAll(async () => {
  t = await startBackupStack();
  const res = await t.env.admin.call('POST', '/api/application/cloudsvc/plans', {
    code: `hot-${randomUUID().slice(0, 8)}`,
    name: 'hot',
    cpu_cores: 2,
    memory_mb: 1024 + 256,
    disk_mb: 20_480 + 4096,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  hot = { code: res.body.attributes.code, id: res.body.attributes.uuid };
});
afterAll(() => t?.close());

const admin = (id: string, body: Record<string, unknown>) =>
  t.env.admin.call('POST', `/api/application/cloudsvc/instances/${id}/resize`, body);

const hostIdOf = async (id: string) =>
  (
    await t.env.db
      .selectFrom('instances')
      .select('hypervisor_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).hypervisor_id!;

/** Gives a hypervisor exactly `spare` cores beyond what its reservations hold; put back after. */
async function withSpareCores<T>(hypervisorId: string, spare: number, run: () => Promise<T>): Promise<T> {
  const held = await t.env.db
    .selectFrom('reservations')
    .select((eb) => eb.fn.sum<number>('cpu_cores').as('sum'))
    .where('hypervisor_id', '=', hypervisorId)
    .where('released_at', 'is', null)
    .executeTakeFirstOrThrow();
  await t.env.db
    .updateTable('hypervisors')
    .set({ cpu_cores: Number(held.sum ?? 0) + spare })
    .where('id', '=', hypervisorId)
    .execute();
  try {
    return await run();
  } finally {
    await t.env.db.updateTable('hypervisors').set({ cpu_cores: 32 }).where('id', '=', hypervisorId).execute();
  }
}

const activeHolds = (id: string) =>
  t.env.db
    .selectFrom('reservations')
    .select(['hypervisor_id', 'purpose', 'cpu_cores', 'memory_mb', 'disk_mb'])
    .where('instance_id', '=', id)
    .where('released_at', 'is', null)
    .execute();

async function operationEnded(operationId: string) {
  return eventually(
    async () => {
      const row = await t.env.db
        .selectFrom('instance_operations')
        .select(['state', 'kind', 'outcome'])
        .where('id', '=', operationId)
        .executeTakeFirst();
      return row && row.state !== 'running' ? row : undefined;
    },
    60_000,
    'the plan change to end',
  );
}

const placedAs = (id: string) =>
  t.env.db
    .selectFrom('instances')
    .select(['hypervisor_id', 'cpu_cores', 'memory_mb', 'disk_mb', 'plan_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('a plan change that moves first', () => {
  it('recorded and never started (the API process died before the start): the reconciler starts the change, which moves then grows', async () => {
    const { id } = await t.instance();
    const source = await hostIdOf(id);
    const target = t.hosts.find((h) => h.hypervisor.id !== source)!.hypervisor;
    await withSpareCores(source, 0, async () => {
      const who = { type: 'admin', userId: t.env.admin.id } as const;
      const judgement = await judgeResize(t.env.deps, who, {
        instanceId: id,
        target: { plan: hot.code },
        allowMove: true,
      });
      expect(judgement.room.kind).toBe('move');
      if (judgement.room.kind !== 'move') return;
      // What the request commits before it calls Temporal, and nothing after.
      const { recorded, afterMove } = await recordMoveThenResize(
        t.env.deps,
        who,
        { ...judgement, room: judgement.room },
        null,
      );
      await expect(
        t.env.temporal.workflow.getHandle(recorded.plan.workflowId).describe(),
      ).rejects.toBeInstanceOf(WorkflowNotFoundError);

      expect((await reconcileOperationsOf(t.env.deps, [id])).started).toBe(1);
      const operation = await operationEnded(afterMove.operationId);
      expect(operation, JSON.stringify(operation.outcome)).toMatchObject({
        state: 'succeeded',
        kind: 'resize',
      });
      await t.settled(id, 'running');
      expect(await placedAs(id)).toEqual({
        hypervisor_id: target.id,
        cpu_cores: 2,
        memory_mb: 1280,
        disk_mb: 24_576,
        plan_id: hot.id,
      });
      expect(await activeHolds(id)).toEqual([
        { hypervisor_id: target.id, purpose: 'instance', cpu_cores: 2, memory_mb: 1280, disk_mb: 24_576 },
      ]);
      // The target's guest: the source keeps its stopped copy for the move's retention window.
      const targetAgent = t.hosts.find((h) => h.hypervisor.id === target.id)!.agent;
      expect(targetAgent.hypervisor().instances[id]).toMatchObject({
        cpu_cores: 2,
        memory_mb: 1280,
        disk_mb: 24_576,
        power_state: 'running',
      });
      // The moved guest kept the room its process was booted with: the change after the move was hot.
      expect(await t.env.temporal.workflow.getHandle(afterMove.workflowId).result()).toMatchObject({
        applied: 'hot',
      });
      expect(
        await t.env.db
          .selectFrom('instances')
          .select(['hot_ceiling_cpu_cores', 'hot_ceiling_memory_mb'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ hot_ceiling_cpu_cores: 8, hot_ceiling_memory_mb: 16_384 });
      // A second round finds nothing left to start.
      expect((await reconcileOperationsOf(t.env.deps, [id])).started).toBe(0);
    });
  });

  it('two at once to a target with the room for one: one moves and grows, the other is refused before moving, saying why', async () => {
    // Two instances on one hypervisor (of the location's two, one holds at least two of three).
    const made = [await t.instance(), await t.instance(), await t.instance()];
    const hosts = await Promise.all(made.map((m) => hostIdOf(m.id)));
    const source = hosts.find((h) => hosts.filter((x) => x === h).length >= 2)!;
    const [a, b] = made.filter((_, i) => hosts[i] === source).map((m) => m.id) as [string, string];
    const target = t.hosts.find((h) => h.hypervisor.id !== source)!.hypervisor;
    const before = { a: await activeHolds(a), b: await activeHolds(b) };
    // The new size holds 2 cores on the target from the move's start: 3 spare hold one, not two.
    await withSpareCores(source, 0, () =>
      withSpareCores(target.id, 3, async () => {
        const both = await Promise.all([
          admin(a, { plan: hot.code, allow_move: true }),
          admin(b, { plan: hot.code, allow_move: true }),
        ]);
        expect(both.map((r) => r.status).sort(), JSON.stringify(both.map((r) => r.body))).toEqual([202, 409]);
        const refused = both.find((r) => r.status === 409)!;
        expect(refused.body.errors[0].code).toBe('SVC-CAPACITY-409');
        expect(refused.body.errors[0].detail).toMatch(/room for the new size/);
        const [won, lost] = both[0]!.status === 202 ? [a, b] : [b, a];

        const operation = await operationEnded(
          both.find((r) => r.status === 202)!.body.attributes.operation_uuid,
        );
        expect(operation, JSON.stringify(operation.outcome)).toMatchObject({ state: 'succeeded' });
        await t.settled(won, 'running');
        expect(await placedAs(won)).toMatchObject({
          hypervisor_id: target.id,
          cpu_cores: 2,
          plan_id: hot.id,
        });
        // The refused one never moved, never began anything, and holds what it held.
        expect(await placedAs(lost)).toMatchObject({ hypervisor_id: source, cpu_cores: 1 });
        expect(await activeHolds(lost)).toEqual(lost === a ? before.a : before.b);
        const moves = await t.env.db
          .selectFrom('migrations')
          .select('id')
          .where('instance_id', '=', lost)
          .execute();
        expect(moves).toEqual([]);
      }),
    );
  });

  it('holds the new size on the target from the move’s start; refused after it (a quota lowered meanwhile), the room goes back and the run says why', async () => {
    const { id } = await t.instance();
    const source = await hostIdOf(id);
    const target = t.hosts.find((h) => h.hypervisor.id !== source)!.hypervisor;
    const userId = t.env.client.id;
    await withSpareCores(source, 0, async () => {
      // The move's first step on the target fails once and is retried a second later: time enough
      // to lower the quota before the change begins there.
      t.hosts
        .find((h) => h.hypervisor.id === target.id)!
        .agent.armFault('migration.prepare_target', { mode: 'fail', times: 1 });
      const res = await admin(id, { plan: hot.code, allow_move: true });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      // In the request's transaction: the room for the new size, not the instance's present one.
      expect(await activeHolds(id)).toContainEqual({
        hypervisor_id: target.id,
        purpose: 'migration',
        cpu_cores: 2,
        memory_mb: 1280,
        disk_mb: 24_576,
      });
      // The owner's vCPUs capped at what they have now: the change is refused once moved.
      const cores = await t.env.db
        .selectFrom('instances')
        .select((eb) => eb.fn.sum<number>('cpu_cores').as('sum'))
        .where('user_id', '=', userId)
        .where('status', '<>', 'deleted')
        .executeTakeFirstOrThrow();
      await replaceUserQuotas(t.env.db, userId, { ...UNLIMITED, cpu_cores: Number(cores.sum) });
      try {
        const run = t.env.temporal.workflow.getHandle(
          instanceOperationWorkflowId('resize', id, res.body.attributes.operation_uuid),
        );
        await expect(run.result()).rejects.toThrow();
        const history = JSON.stringify((await run.fetchHistory()).events);
        expect(history).toContain('QUOTA_EXCEEDED');
      } finally {
        await replaceUserQuotas(t.env.db, userId, UNLIMITED);
      }
      await t.settled(id, 'running');
      expect(await placedAs(id)).toMatchObject({ hypervisor_id: target.id, cpu_cores: 1, memory_mb: 1024 });
      expect(await activeHolds(id)).toEqual([
        { hypervisor_id: target.id, purpose: 'instance', cpu_cores: 1, memory_mb: 1024, disk_mb: 20_480 },
      ]);
    });
  });
});
