import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { growRootDisk } from '../../services/storage/root-disk.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';

/**
 * The instance's storage and its root disk grown through the Client API, with real (in-process)
 * agents: after every grow the hypervisor's disk, the instance's size and the room it holds agree.
 */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack();
});
afterAll(() => t.close());

const PLAN_MB = 20_480;
const storage = async (id: string) => (await t.api('GET', `/${id}/storage`)).body.attributes.root;
const grow = (id: string, size_mb: unknown) => t.api('POST', `/${id}/storage/root/resize`, { size_mb });
const setPlanDisk = async (disk_mb: number) =>
  expect(
    (await t.env.admin.call('PATCH', `/api/application/cloudsvc/plans/${t.catalog.plan.id}`, { disk_mb }))
      .status,
  ).toBe(200);
/** What the panel and the hypervisor hold of the root disk: instance, reservation, hypervisor. */
async function sizes(id: string) {
  const instance = await t.env.db
    .selectFrom('instances')
    .select('disk_mb')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const held = await t.env.db
    .selectFrom('reservations')
    .select('disk_mb')
    .where('instance_id', '=', id)
    .where('purpose', '=', 'instance')
    .where('released_at', 'is', null)
    .executeTakeFirstOrThrow();
  return [instance.disk_mb, held.disk_mb, t.hostOf(id).hypervisor().instances[id]!.disk_mb];
}

describe('the root disk', () => {
  it('shows its size, its plan’s and its backend; grows to the plan’s raised disk, twice alike; the three records agree', async () => {
    const { id } = await t.instance();
    expect(await storage(id)).toEqual({
      size_mb: PLAN_MB,
      max_size_mb: PLAN_MB,
      growing_to_mb: null,
      storage_backend: 'local',
    });
    await setPlanDisk(PLAN_MB + 4096);
    try {
      const res = await grow(id, PLAN_MB + 2048);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.attributes.root).toMatchObject({ size_mb: PLAN_MB, growing_to_mb: PLAN_MB + 2048 });
      await t.settled(id, 'running');
      expect(await storage(id)).toMatchObject({ size_mb: PLAN_MB + 2048, growing_to_mb: null });
      expect(await sizes(id)).toEqual([PLAN_MB + 2048, PLAN_MB + 2048, PLAN_MB + 2048]);
      // Asked again: it has that size; nothing begins.
      const again = await grow(id, PLAN_MB + 2048);
      expect(again.status).toBe(200);
      expect(await t.latestTask(id)).toMatchObject({ operation: 'disk_resize', state: 'succeeded' });
      // A stopped instance grows too, and stays stopped.
      expect((await t.api('POST', `/${id}/power`, { action: 'stop' })).status).toBe(202);
      await t.settled(id, 'stopped');
      expect((await grow(id, PLAN_MB + 4096)).status).toBe(202);
      await t.settled(id, 'stopped');
      expect(await sizes(id)).toEqual([PLAN_MB + 4096, PLAN_MB + 4096, PLAN_MB + 4096]);
    } finally {
      await setPlanDisk(PLAN_MB);
    }
  });

  it('refuses a smaller size, one beyond the plan, bad input and a foreign instance, changing nothing', async () => {
    const { id } = await t.instance();
    const before = await sizes(id);
    for (const [size, status, code] of [
      [PLAN_MB - 1, 400, 'SVC-REQ-400'],
      [PLAN_MB + 1, 409, 'SVC-QUOTA-409'],
      [0, 400, 'SVC-REQ-400'],
      ['big', 400, 'SVC-REQ-400'],
      [1.5, 400, 'SVC-REQ-400'],
    ] as const) {
      const res = await grow(id, size);
      expect(res.status, String(size)).toBe(status);
      expect(res.body.errors[0].code).toBe(code);
    }
    expect((await t.api('POST', `/${id}/storage/root/resize`, { size_mb: PLAN_MB, extra: 1 })).status).toBe(
      400,
    );
    expect(await sizes(id)).toEqual(before);
    const foreign = await t.env.stranger.call('POST', `/api/client/cloud/${id}/storage/root/resize`, {
      size_mb: PLAN_MB,
    });
    expect(foreign.status).toBe(404);
    expect((await t.env.stranger.call('GET', `/api/client/cloud/${id}/storage`)).status).toBe(404);
    expect((await t.api('GET', `/${randomUUID()}/storage`)).status).toBe(404);
    expect((await t.env.call(null, 'GET', `/api/client/cloud/${id}/storage`)).status).toBe(401);
  });

  it('two grows at once: one runs, the other is held off; a hypervisor without the room refuses before anything is held', async () => {
    const { id } = await t.instance();
    await setPlanDisk(PLAN_MB + 8192);
    try {
      const both = await Promise.all([grow(id, PLAN_MB + 1024), grow(id, PLAN_MB + 2048)]);
      expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
      const won = both.find((r) => r.status === 202)!.body.attributes.root.growing_to_mb;
      await t.settled(id);
      expect(await sizes(id)).toEqual([won, won, won]);

      // The hypervisor's disk all but taken: the grow is refused and nothing is held.
      const hypervisorId = (
        await t.env.db
          .selectFrom('instances')
          .select('hypervisor_id')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).hypervisor_id!;
      const { disk_mb } = await t.env.db
        .selectFrom('hypervisors')
        .select('disk_mb')
        .where('id', '=', hypervisorId)
        .executeTakeFirstOrThrow();
      const held = await t.env.db
        .selectFrom('reservations')
        .select(sql<number>`sum(disk_mb)::int`.as('sum'))
        .where('hypervisor_id', '=', hypervisorId)
        .where('released_at', 'is', null)
        .executeTakeFirstOrThrow();
      await t.env.db
        .updateTable('hypervisors')
        .set({ disk_mb: held.sum + 100 })
        .where('id', '=', hypervisorId)
        .execute();
      try {
        const refused = await grow(id, PLAN_MB + 8192);
        expect(refused.status).toBe(409);
        expect(refused.body.errors[0].code).toBe('SVC-CAPACITY-409');
        expect(await sizes(id)).toEqual([won, won, won]);
      } finally {
        await t.env.db.updateTable('hypervisors').set({ disk_mb }).where('id', '=', hypervisorId).execute();
      }
    } finally {
      await setPlanDisk(PLAN_MB);
    }
  });

  it('a grow whose workflow cannot start (Temporal unreachable) is 503 and holds no more room', async () => {
    const { id } = await t.instance();
    await setPlanDisk(PLAN_MB + 1024);
    try {
      const cut = { ...t.env.deps, config: { ...t.env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } };
      const customer = { type: 'user' as const, userId: t.env.client.id };
      await expect(
        growRootDisk(cut, customer, { instanceId: id, sizeMb: PLAN_MB + 1024, correlationId: null }),
      ).rejects.toMatchObject({ code: 'SVC-SYS-503' });
      expect(await sizes(id)).toEqual([PLAN_MB, PLAN_MB, PLAN_MB]);
    } finally {
      await setPlanDisk(PLAN_MB);
    }
  });

  it('a hypervisor that fails the grow leaves the disk and the room held as they were, and the task history says it failed', async () => {
    const { id } = await t.instance();
    await setPlanDisk(PLAN_MB + 1024);
    try {
      t.hostOf(id).armFault('disk.resize', { mode: 'fail-permanently' });
      expect((await grow(id, PLAN_MB + 1024)).status).toBe(202);
      await t.settled(id, 'running');
      expect(await sizes(id)).toEqual([PLAN_MB, PLAN_MB, PLAN_MB]);
      expect(await t.latestTask(id)).toMatchObject({ operation: 'disk_resize', state: 'failed' });
    } finally {
      await setPlanDisk(PLAN_MB);
    }
  });
});
