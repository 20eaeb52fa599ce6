import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import { requestMigration } from '../../services/migrations/request.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { migrationEnd } from '../support/migrations.js';

/**
 * A migrated instance keeps its volumes: each moves to the hypervisor it lands on, in the slot it
 * had, the panel keeps it and its room there, the source's copy goes at its cleanup, and the next
 * change of the volume goes to where it is now. A move that fails leaves them where they were.
 */
let t: BackupStack;
beforeAll(async () => {
  // The source's copy is removed at once after a move, so the instance may move back.
  t = await startBackupStack({ MIGRATION_SOURCE_RETENTION_MS: '0', VOLUME_MAX_SIZE_MB: '8192' });
});
afterAll(() => t.close());

type Host = BackupStack['hosts'][number];

async function volume(sizeMb: number): Promise<string> {
  const res = await t.api('POST', '/volumes', {
    name: `data-${randomUUID().slice(0, 8)}`,
    location: t.location.code,
    size_mb: sizeMb,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attributes.uuid;
}

async function attach(volumeId: string, instanceId: string): Promise<void> {
  const res = await t.api('POST', `/volumes/${volumeId}/attach`, { instance: instanceId });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await t.settled(instanceId);
}

/** An instance with two volumes on it, and the hosts it is on and is not. */
async function instanceWithVolumes() {
  const { id } = await t.instance();
  const volumes = [await volume(2048), await volume(3072)];
  for (const v of volumes) await attach(v, id);
  const source = t.hosts.find((h) => h.agent.hypervisor().instances[id])!;
  const target = t.hosts.find((h) => h !== source)!;
  return { id, volumes, source, target };
}

const migrate = (instanceId: string, to: Host, mode = 'AUTO') =>
  t.env.admin.call('POST', `/admin/cloudsvc/instances/${instanceId}/migrations`, {
    target_hypervisor_uuid: to.hypervisor.id,
    mode,
  });

/** Requests the move, and waits for its end (the source's cleanup included). */
async function moved(instanceId: string, to: Host, mode = 'AUTO') {
  const res = await migrate(instanceId, to, mode);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const workflowId: string = res.body.attributes.workflow_id;
  return migrationEnd(t.env, workflowId);
}

/** Each volume as a host holds it: its instance, slot and size. */
const heldBy = (host: Host, volumes: string[]) =>
  volumes.map((v) => {
    const held = host.agent.hypervisor().volumes?.[v];
    return held && { instance_id: held.instance_id, slot: held.slot, size_mb: held.size_mb };
  });

/** Where the panel keeps each volume, and the hypervisors its active room is held on. */
async function panelOf(volumes: string[]) {
  return Promise.all(
    volumes.map(async (v) => {
      const row = await t.env.db
        .selectFrom('volumes')
        .select(['hypervisor_id', 'instance_id', 'state'])
        .where('id', '=', v)
        .executeTakeFirstOrThrow();
      const held = await t.env.db
        .selectFrom('reservations')
        .select(['hypervisor_id', 'purpose', 'disk_mb'])
        .where('volume_id', '=', v)
        .where('released_at', 'is', null)
        .execute();
      return { ...row, held };
    }),
  );
}

describe('a migration carries the volumes', () => {
  it('moves each volume to the target in its slot, the panel with it, and back again; the source keeps no copy', async () => {
    const { id, volumes, source, target } = await instanceWithVolumes();
    const before = heldBy(source, volumes);
    expect(before).toEqual([
      { instance_id: id, slot: 1, size_mb: 2048 },
      { instance_id: id, slot: 2, size_mb: 3072 },
    ]);

    for (const [from, to, mode] of [
      [source, target, 'COLD'],
      [target, source, 'AUTO'],
    ] as const) {
      expect(await moved(id, to, mode)).toEqual({ state: 'CLEANED_UP' });
      expect(heldBy(to, volumes)).toEqual(before);
      expect(heldBy(from, volumes)).toEqual([undefined, undefined]);
      expect(await panelOf(volumes)).toEqual(
        [2048, 3072].map((disk_mb) => ({
          hypervisor_id: to.hypervisor.id,
          instance_id: id,
          state: 'attached',
          held: [{ hypervisor_id: to.hypervisor.id, purpose: 'volume', disk_mb }],
        })),
      );
    }
  });

  it('the next change of a moved volume goes to its new hypervisor', async () => {
    const { id, volumes, target } = await instanceWithVolumes();
    expect(await moved(id, target)).toEqual({ state: 'CLEANED_UP' });
    const res = await t.api('POST', `/volumes/${volumes[1]}/detach`);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await t.settled(id);
    expect(heldBy(target, volumes)).toEqual([
      { instance_id: id, slot: 1, size_mb: 2048 },
      { instance_id: null, slot: null, size_mb: 3072 },
    ]);
    expect((await t.api('POST', `/volumes/${volumes[1]}/attach`, { instance: id })).status).toBe(202);
    await t.settled(id);
    expect(heldBy(target, volumes)[1]).toEqual({ instance_id: id, slot: 2, size_mb: 3072 });
  });

  it('a failed transfer of a volume rolls back: the volumes stay on the source, its offer is withdrawn, the target holds nothing', async () => {
    const { id, volumes, source, target } = await instanceWithVolumes();
    const before = await panelOf(volumes);
    // The second pull is the first volume's, after the root disk's.
    target.agent.armFault('disk.transfer', { mode: 'fail-permanently', nth: 2 });
    expect(await moved(id, target)).toEqual({ state: 'ROLLED_BACK' });
    const withdrawn = await t.env.db
      .selectFrom('agent_tasks')
      .select(['params', 'status'])
      .where('hypervisor_id', '=', source.hypervisor.id)
      .where('type', '=', 'disk.withdraw')
      .execute();
    expect(withdrawn.filter((w) => (w.params as { instance_id: string }).instance_id === id)).toEqual([
      { params: expect.objectContaining({ instance_id: id }), status: 'completed' },
    ]);
    expect(heldBy(source, volumes)).toEqual([
      { instance_id: id, slot: 1, size_mb: 2048 },
      { instance_id: id, slot: 2, size_mb: 3072 },
    ]);
    expect(heldBy(target, volumes)).toEqual([undefined, undefined]);
    const arriving = Object.values(target.agent.hypervisor().incoming ?? {});
    expect(arriving.filter((i) => i.instance_id === id)).toEqual([]);
    expect(await panelOf(volumes)).toEqual(before);
    const onTarget = await t.env.db
      .selectFrom('reservations')
      .select('id')
      .where('hypervisor_id', '=', target.hypervisor.id)
      .where('instance_id', '=', id)
      .where('released_at', 'is', null)
      .execute();
    expect(onTarget).toEqual([]);
    expect(await t.settled(id)).toMatchObject({ status: 'running' });
  });

  it('the preflight counts the volumes’ disks in the room the target needs', async () => {
    const { id, target } = await instanceWithVolumes();
    const preflight = () =>
      t.env.admin.call('POST', `/admin/cloudsvc/instances/${id}/migrations/preflight`, {
        mode: 'COLD',
        target_hypervisor_uuid: target.hypervisor.id,
      });
    const ok = await preflight();
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.attributes.blockers).toEqual([]);
    // Room for the instance's own disk, not for its volumes' as well.
    const { disk_mb } = await t.env.db
      .selectFrom('hypervisors')
      .select('disk_mb')
      .where('id', '=', target.hypervisor.id)
      .executeTakeFirstOrThrow();
    const free = await freeDiskOf(target.hypervisor.id);
    const { disk_mb: instanceDisk } = await t.env.db
      .selectFrom('instances')
      .select('disk_mb')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await t.env.db
      .updateTable('hypervisors')
      .set({ disk_mb: disk_mb - free + instanceDisk + 1024 })
      .where('id', '=', target.hypervisor.id)
      .execute();
    try {
      const short = await preflight();
      expect(short.body.attributes.blockers.map((b: Body) => b.code)).toEqual([
        'TARGET_INSUFFICIENT_CAPACITY',
      ]);
      const refused = await migrate(id, target, 'COLD');
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].detail).toContain('TARGET_INSUFFICIENT_CAPACITY');
    } finally {
      await t.env.db
        .updateTable('hypervisors')
        .set({ disk_mb })
        .where('id', '=', target.hypervisor.id)
        .execute();
    }
  });

  it('moved back at once, the retained copy’s volumes are kept apart, and only they go once the move back commits', async () => {
    const { id, volumes, source, target } = await instanceWithVolumes();
    const before = heldBy(source, volumes);
    // A day's retention, as in production: the first move's copy is still on the source.
    const kept = { ...t.env.deps, config: { ...t.env.config, MIGRATION_SOURCE_RETENTION_MS: 86_400_000 } };
    const admin = { type: 'admin' as const, userId: t.env.admin.id };
    const move = (to: Host) =>
      requestMigration(kept, admin, {
        instanceId: id,
        targetId: to.hypervisor.id,
        mode: 'AUTO',
        correlationId: null,
      });
    const first = await move(target);
    expect(await t.env.temporal.workflow.getHandle(first.workflowId).result()).toEqual({
      state: 'COMPLETED',
    });
    expect(heldBy(source, volumes)).toEqual(before);

    const back = await move(source);
    expect(await t.env.temporal.workflow.getHandle(back.workflowId).result()).toEqual({ state: 'COMPLETED' });
    await eventually(
      async () => (await findMigration(t.env.db, first.migrationId))?.state === 'CLEANED_UP',
      20_000,
      'the first move’s copy removed',
    );
    // The volumes on the source are the arrived instance's: the old copy's cleanup left them.
    expect(heldBy(source, volumes)).toEqual(before);
    expect(source.agent.hypervisor().outgoing?.[first.migrationId]).toBeUndefined();
    expect((await panelOf(volumes)).map((v) => v.hypervisor_id)).toEqual([
      source.hypervisor.id,
      source.hypervisor.id,
    ]);
  });

  it('two moves of the same instance at once: one is taken, the other refused, and the volumes move once', async () => {
    const { id, volumes, target } = await instanceWithVolumes();
    const answers = await Promise.all([migrate(id, target), migrate(id, target)]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const taken = answers.find((a) => a.status === 202)!;
    expect(await migrationEnd(t.env, taken.body.attributes.workflow_id)).toEqual({ state: 'CLEANED_UP' });
    expect((await panelOf(volumes)).map((v) => v.held)).toEqual([
      [{ hypervisor_id: target.hypervisor.id, purpose: 'volume', disk_mb: 2048 }],
      [{ hypervisor_id: target.hypervisor.id, purpose: 'volume', disk_mb: 3072 }],
    ]);
  });
});

/** The disk a hypervisor has free by the panel's reservations. */
async function freeDiskOf(hypervisorId: string): Promise<number> {
  const row = await t.env.db
    .selectFrom('hypervisors as h')
    .select([
      'h.disk_mb',
      (eb) =>
        eb
          .selectFrom('reservations as r')
          .select((e) => e.fn.coalesce(e.fn.sum<number>('r.disk_mb'), e.lit(0)).as('s'))
          .whereRef('r.hypervisor_id', '=', 'h.id')
          .where('r.released_at', 'is', null)
          .as('reserved'),
    ])
    .where('h.id', '=', hypervisorId)
    .executeTakeFirstOrThrow();
  return row.disk_mb - Number(row.reserved);
}
