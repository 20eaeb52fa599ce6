import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, sha256, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';

/**
 * Snapshots through the Client API and real (in-process) agents: taken beside the disk, listed,
 * restored (the disk really goes back), deleted; twice in a row, two at once, failures, the limit.
 */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack({ MAX_SNAPSHOTS_PER_INSTANCE: '2' });
});
afterAll(() => t.close());

const snapshotsOf = async (instanceId: string) =>
  (await t.api('GET', `/${instanceId}/snapshots?per_page=100`)).body.data.map((s: Body) => s.attributes);

async function snapshot(instanceId: string): Promise<Body> {
  const res = await t.api('POST', `/${instanceId}/snapshots`, {});
  expect(res.status).toBe(202);
  const { uuid } = res.body.attributes;
  const taken = await t.listed(
    `/${instanceId}/snapshots`,
    uuid,
    (s) => s.state !== 'creating',
    'the snapshot',
  );
  await t.settled(instanceId);
  return taken;
}

describe('snapshots', () => {
  it('are taken beside the disk, twice in a row, and restore the disk they were taken of', async () => {
    const { id, agent } = await t.instance();
    const res = await t.api('POST', `/${id}/snapshots`, { name: 'clean' });
    expect(res.status).toBe(202);
    const accepted = res.body.attributes;
    expect(accepted).toMatchObject({ name: 'clean', state: 'creating', checksum: null });
    const first = await t.listed(
      `/${id}/snapshots`,
      accepted.uuid,
      (s) => s.state === 'available',
      'snapshot',
    );
    const clean = t.diskOf(id);
    expect(first.checksum).toBe(sha256(clean));
    expect(agent.hypervisor().instances[id]!.snapshots![first.uuid]!.content).toBe(clean);
    await t.settled(id);

    expect((await t.env.power(id, 'restart')).status).toBe(202);
    await t.settled(id, 'running');
    const second = await snapshot(id);
    expect(second.state).toBe('available');
    expect(second.checksum).not.toBe(first.checksum);
    expect((await snapshotsOf(id)).map((s: Body) => s.uuid)).toEqual([second.uuid, first.uuid]);

    const restored = await t.api('POST', `/${id}/snapshots/${first.uuid}/restore`);
    expect(restored.status).toBe(202);
    expect(restored.body.attributes.status).toBe('restoring');
    await t.settled(id, 'running');
    expect(t.diskOf(id)).toBe(clean);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'snapshot_restore', state: 'succeeded' });

    // Restored again, from the other one: the disk follows.
    expect((await t.api('POST', `/${id}/snapshots/${second.uuid}/restore`)).status).toBe(202);
    await t.settled(id, 'running');
    expect(sha256(t.diskOf(id))).toBe(second.checksum);
  });

  it('two at once: one is accepted, the other refused with SVC-OP-409', async () => {
    const { id } = await t.instance();
    const answers = await Promise.all([
      t.api('POST', `/${id}/snapshots`, {}),
      t.api('POST', `/${id}/snapshots`, {}),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    await t.settled(id);
    expect(await snapshotsOf(id)).toHaveLength(1);
  });

  it('at most MAX_SNAPSHOTS_PER_INSTANCE: one more is SVC-QUOTA-409 until one is deleted', async () => {
    const { id, agent } = await t.instance();
    const kept = [await snapshot(id), await snapshot(id)];
    const refused = await t.api('POST', `/${id}/snapshots`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'SVC-QUOTA-409',
      detail: 'The instance holds its limit of 2 snapshots; delete one first.',
    });

    const deleted = await t.api('DELETE', `/${id}/snapshots/${kept[0].uuid}`);
    expect(deleted.status).toBe(202);
    expect(deleted.body.attributes.state).toBe('deleting');
    await eventually(async () => (await snapshotsOf(id)).length === 1, 10_000, 'the snapshot to go');
    expect(agent.hypervisor().instances[id]!.snapshots![kept[0].uuid]).toBeUndefined();
    await t.settled(id);
    expect((await t.api('DELETE', `/${id}/snapshots/${kept[0].uuid}`)).status).toBe(404);
    expect((await t.api('POST', `/${id}/snapshots`, {})).status).toBe(202);
    await t.settled(id);
  });

  it('refuse bad input and other instances’ snapshots', async () => {
    const { id } = await t.instance();
    const other = await t.instance();
    const theirs = await snapshot(other.id);
    const bad = await t.api('POST', `/${id}/snapshots`, { name: 'x'.repeat(101) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source).toEqual({ field: 'name' });
    expect((await t.api('POST', `/${id}/snapshots`, { name: 'ok', state: 'available' })).status).toBe(400);
    expect((await t.api('POST', `/${id}/snapshots/${theirs.uuid}/restore`)).status).toBe(404);
    expect((await t.api('DELETE', `/${id}/snapshots/${theirs.uuid}`)).status).toBe(404);
    expect((await t.api('DELETE', `/${id}/snapshots/${randomUUID()}`)).status).toBe(404);
    expect(await snapshotsOf(id)).toEqual([]);
  });

  it('a snapshot that fails is recorded failed; a failed restore leaves the disk as it was', async () => {
    const { id, agent } = await t.instance();
    agent.armFault('snapshot.create', { mode: 'fail-permanently' });
    const failed = (await t.api('POST', `/${id}/snapshots`, {})).body.attributes;
    const recorded = await t.listed(`/${id}/snapshots`, failed.uuid, (s) => s.state === 'failed', 'failure');
    expect(recorded.error).toMatchObject({ code: 'OPERATION_FAILED' });
    await t.settled(id);
    const refused = await t.api('POST', `/${id}/snapshots/${failed.uuid}/restore`);
    expect(refused.status).toBe(409);
    expect((await t.api('DELETE', `/${id}/snapshots/${failed.uuid}`)).status).toBe(202);
    await t.settled(id);

    const good = await snapshot(id);
    expect((await t.env.power(id, 'stop')).status).toBe(202);
    await t.settled(id, 'stopped');
    const current = t.diskOf(id);
    agent.armFault('disk.swap', { mode: 'fail-permanently' });
    expect((await t.api('POST', `/${id}/snapshots/${good.uuid}/restore`)).status).toBe(202);
    expect(await t.settled(id)).toMatchObject({ status: 'stopped' });
    expect(t.diskOf(id)).toBe(current);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'snapshot_restore', state: 'failed' });

    // A snapshot whose content no longer matches is refused at restore and marked failed.
    agent.armFault('snapshot.restore', { mode: 'corrupt' });
    expect((await t.api('POST', `/${id}/snapshots/${good.uuid}/restore`)).status).toBe(202);
    await t.settled(id, 'stopped');
    expect(t.diskOf(id)).toBe(current);
    expect(await t.latestTask(id)).toMatchObject({ state: 'failed', error: { code: 'SNAPSHOT_CORRUPT' } });
    expect((await snapshotsOf(id)).find((s: Body) => s.uuid === good.uuid).state).toBe('failed');
  });
});
