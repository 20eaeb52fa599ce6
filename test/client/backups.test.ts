import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { type BackupStack, sha256, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { reconcileOperationsOf } from '../support/reconcile.js';

/**
 * Backups through the Client API and real (in-process) agents whose simulated hypervisors share a
 * backup store: made, listed, verified, protected, deleted, restored in place and as a new
 * instance; each operation twice in a row and two at once; failures half-way; the limit.
 */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack({ MAX_BACKUPS_PER_INSTANCE: '3' });
});
afterAll(() => t.close());

const backupsOf = async (instanceId: string) =>
  (await t.api('GET', `/${instanceId}/backups?per_page=100`)).body.data.map((b: Body) => b.attributes);

describe('making backups', () => {
  it('copies the disk into the store with its checksum; the instance keeps running; listed newest first', async () => {
    const { id } = await t.instance();
    const res = await t.api('POST', `/${id}/backups`, { name: 'before upgrade' });
    expect(res.status).toBe(202);
    const accepted = res.body.attributes;
    expect(accepted).toMatchObject({
      name: 'before upgrade',
      state: 'creating',
      size_mb: null,
      protected: false,
    });
    expect((await t.api('GET', `/${id}`)).body.attributes.status).toBe('running');

    const made = await t.listed(
      `/${id}/backups`,
      accepted.uuid,
      (b) => b.state === 'available',
      'the backup',
    );
    expect(made.checksum).toBe(sha256(t.diskOf(id)));
    expect(made).toMatchObject({ size_mb: 2560, error: null, schedule: null, verified_at: null });
    expect(t.storeOf().backups[accepted.uuid]?.content).toBe(t.diskOf(id));
    expect(await t.settled(id)).toMatchObject({ status: 'running' });
    expect(await t.latestTask(id)).toMatchObject({ operation: 'backup', state: 'succeeded' });

    // Twice in a row: a second backup once the first settled, listed first.
    const second = await t.backup(id);
    expect(second.name).toMatch(/^backup \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect((await backupsOf(id)).map((b: Body) => b.uuid)).toEqual([second.uuid, accepted.uuid]);
  });

  it('two at once: one is accepted, the other refused with SVC-OP-409, and only one backup exists', async () => {
    const { id } = await t.instance();
    const answers = await Promise.all([
      t.api('POST', `/${id}/backups`, {}),
      t.api('POST', `/${id}/backups`, {}),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(refused.body.errors[0].code).toBe('SVC-OP-409');
    await t.settled(id);
    expect(await backupsOf(id)).toHaveLength(1);
  });

  it('refuses bad input, naming the field, and changes nothing', async () => {
    const { id } = await t.instance();
    for (const body of [
      { name: '' },
      { name: 'x'.repeat(101) },
      { name: 'a\u0000b' },
      { state: 'available' },
    ]) {
      const res = await t.api('POST', `/${id}/backups`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].code).toBe('SVC-REQ-400');
    }
    expect((await t.api('POST', `/${id}/backups`, { name: '' })).body.errors[0].source).toEqual({
      field: 'name',
    });
    expect(await backupsOf(id)).toEqual([]);
    expect((await t.api('POST', `/${randomUUID()}/backups`, {})).status).toBe(404);
    expect((await t.api('GET', `/${id}/backups?per_page=0`)).status).toBe(400);
  });

  it('a backup that fails half-way is recorded failed, its leftovers removed, the instance untouched', async () => {
    const { id, agent } = await t.instance();
    agent.armFault('backup.create', { mode: 'fail-permanently' });
    const res = await t.api('POST', `/${id}/backups`, {});
    const { uuid } = res.body.attributes;
    const failed = await t.listed(`/${id}/backups`, uuid, (b) => b.state === 'failed', 'the failure');
    // What the customer reads of the failure: the catalogue's meaning, never the hypervisor's words.
    expect(failed.error).toEqual({
      code: 'OPERATION_FAILED',
      message: 'The hypervisor could not complete the operation.',
    });
    expect(await t.settled(id)).toMatchObject({ status: 'running' });
    expect(await t.latestTask(id)).toMatchObject({ operation: 'backup', state: 'failed' });
    const operation = await t.env.latestOperation(id);
    const tasks = await listTasksOfWorkflow(t.env.db, operation.workflow_id);
    // The leftover removed, and the guest's state read to settle the instance's status from it.
    expect(tasks.map((task) => task.type).sort()).toEqual([
      'backup.create',
      'backup.delete',
      'instance.state',
    ]);
    expect(t.storeOf().backups[uuid]).toBeUndefined();
  });

  it('at most MAX_BACKUPS_PER_INSTANCE are held: one more is SVC-QUOTA-409; failed ones do not count', async () => {
    const { id, agent } = await t.instance();
    agent.armFault('backup.create', { mode: 'fail-permanently' });
    const failed = (await t.api('POST', `/${id}/backups`, {})).body.attributes;
    await t.listed(`/${id}/backups`, failed.uuid, (b) => b.state === 'failed', 'the failure');
    await t.settled(id);
    const kept = [await t.backup(id), await t.backup(id), await t.backup(id)];
    const refused = await t.api('POST', `/${id}/backups`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'SVC-QUOTA-409',
      detail: 'The instance holds its limit of 3 backups; delete one first.',
    });
    expect(await backupsOf(id)).toHaveLength(4);

    expect((await t.api('DELETE', `/${id}/backups/${kept[0].uuid}`)).status).toBe(202);
    await eventually(
      async () => !(await backupsOf(id)).some((b: Body) => b.uuid === kept[0].uuid),
      10_000,
      'gone',
    );
    await t.settled(id);
    expect((await t.api('POST', `/${id}/backups`, {})).status).toBe(202);
    await t.settled(id);
  });
});

describe('verify', () => {
  it('finds an intact backup intact, twice in a row', async () => {
    const { id } = await t.instance();
    const backup = await t.backup(id);
    for (const round of [1, 2]) {
      const res = await t.api('POST', `/${id}/backups/${backup.uuid}/verify`);
      expect(res.status, `verify ${round}`).toBe(202);
      expect(res.body.attributes.state).toBe('verifying');
      const verified = await t.listed(
        `/${id}/backups`,
        backup.uuid,
        (b) => b.state === 'available',
        'verified',
      );
      expect(verified.verified_at).not.toBeNull();
      await t.settled(id);
      expect(await t.latestTask(id)).toMatchObject({ operation: 'backup_verify', state: 'succeeded' });
    }
  });

  it('finds a corrupted backup corrupt: the task fails with BACKUP_CORRUPT, and it can no longer be restored', async () => {
    const { id, agent } = await t.instance();
    const backup = await t.backup(id);
    agent.armFault('backup.verify', { mode: 'corrupt' });
    expect((await t.api('POST', `/${id}/backups/${backup.uuid}/verify`)).status).toBe(202);
    const corrupt = await t.listed(`/${id}/backups`, backup.uuid, (b) => b.state === 'corrupt', 'corrupt');
    expect(corrupt.error).toEqual({
      code: 'BACKUP_CORRUPT',
      message: 'The backup does not match the checksum recorded when it was made; nothing was changed.',
    });
    await t.settled(id);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'backup_verify', state: 'failed' });
    const restore = await t.api('POST', `/${id}/backups/${backup.uuid}/restore`);
    expect(restore.status).toBe(409);
    expect(restore.body.errors[0].code).toBe('SVC-CONFLICT-409');
    // Checked again, it is still corrupt; deleting it is allowed.
    expect((await t.api('POST', `/${id}/backups/${backup.uuid}/verify`)).status).toBe(202);
    await t.settled(id);
    expect((await backupsOf(id)).find((b: Body) => b.uuid === backup.uuid).state).toBe('corrupt');
    expect((await t.api('DELETE', `/${id}/backups/${backup.uuid}`)).status).toBe(202);
    await t.settled(id);
  });

  it('answers 404 for a backup of another instance, or none', async () => {
    const { id } = await t.instance();
    const other = await t.instance();
    const backup = await t.backup(other.id);
    expect((await t.api('POST', `/${id}/backups/${backup.uuid}/verify`)).status).toBe(404);
    expect((await t.api('POST', `/${id}/backups/${randomUUID()}/protect`, {})).status).toBe(404);
  });
});

describe('protect and delete', () => {
  it('a protected backup cannot be deleted until its protection is removed', async () => {
    const { id } = await t.instance();
    const backup = await t.backup(id);
    const protect = await t.api('POST', `/${id}/backups/${backup.uuid}/protect`, { protected: true });
    expect(protect.status).toBe(200);
    expect(protect.body.attributes.protected).toBe(true);
    const refused = await t.api('DELETE', `/${id}/backups/${backup.uuid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toBe('The backup is protected; remove its protection first.');
    expect((await t.api('POST', `/${id}/backups/${backup.uuid}/protect`, { protected: 'yes' })).status).toBe(
      400,
    );

    expect(
      (await t.api('POST', `/${id}/backups/${backup.uuid}/protect`, { protected: false })).body.attributes,
    ).toMatchObject({ protected: false });
    const deleted = await t.api('DELETE', `/${id}/backups/${backup.uuid}`);
    expect(deleted.status).toBe(202);
    expect(deleted.body.attributes.state).toBe('deleting');
    await eventually(async () => (await backupsOf(id)).length === 0, 10_000, 'the backup to be gone');
    expect(t.storeOf().backups[backup.uuid]).toBeUndefined();
    expect((await t.api('DELETE', `/${id}/backups/${backup.uuid}`)).status).toBe(404);
    // The backup leaves the list before its operation settles: wait for the settling line.
    const events = await eventually(
      async () => {
        const all: string[] = (await t.api('GET', `/${id}/activity?per_page=100`)).body.data.map(
          (a: Body) => a.attributes.event,
        );
        return all.includes('instance.backup_delete.completed') ? all : undefined;
      },
      10_000,
      'the deletion to settle',
    );
    expect(events).toEqual(
      expect.arrayContaining([
        'instance.backup.protected',
        'instance.backup.unprotected',
        'instance.backup_delete.completed',
      ]),
    );
  });
});

describe('restore in place', () => {
  it('brings the disk back to the backup, twice in a row; the instance is restoring, then running', async () => {
    const { id } = await t.instance();
    const backup = await t.backup(id);
    const backedUp = t.diskOf(id);
    for (const round of [1, 2]) {
      expect((await t.env.power(id, 'restart')).status).toBe(202);
      await t.settled(id, 'running');
      expect(t.diskOf(id)).not.toBe(backedUp);
      const res = await t.api('POST', `/${id}/backups/${backup.uuid}/restore`);
      expect(res.status, `restore ${round}`).toBe(202);
      expect(res.body.attributes.status).toBe('restoring');
      await t.settled(id, 'running');
      expect(t.diskOf(id)).toBe(backedUp);
      expect(sha256(t.diskOf(id))).toBe(backup.checksum);
      expect(t.hostOf(id).hypervisor().instances[id]!.restores).toEqual({});
      expect((await backupsOf(id))[0].state).toBe('available');
      expect(await t.latestTask(id)).toMatchObject({ operation: 'restore', state: 'succeeded' });
    }
  });

  it('two at once: one is accepted, the other refused; a stopped instance stays stopped', async () => {
    const { id } = await t.instance();
    const backup = await t.backup(id);
    expect((await t.env.power(id, 'stop')).status).toBe(202);
    await t.settled(id, 'stopped');
    const answers = await Promise.all([
      t.api('POST', `/${id}/backups/${backup.uuid}/restore`),
      t.api('POST', `/${id}/backups/${backup.uuid}/restore`),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(await t.settled(id)).toMatchObject({ status: 'stopped' });
  });

  it('conflicts with power actions while it runs; cancelled, it leaves the old disk', async () => {
    const { id, agent } = await t.instance();
    const backup = await t.backup(id);
    expect((await t.env.power(id, 'restart')).status).toBe(202);
    await t.settled(id, 'running');
    const current = t.diskOf(id);
    agent.armFault('disk.swap', { mode: 'hang' });
    expect((await t.api('POST', `/${id}/backups/${backup.uuid}/restore`)).status).toBe(202);
    const restore = await t.env.latestOperation(id);
    await eventually(
      async () =>
        (await listTasksOfWorkflow(t.env.db, restore.workflow_id)).some(
          (task) => task.type === 'disk.swap' && task.status === 'running',
        ),
      10_000,
      'the swap to run',
    );
    for (const action of ['stop', 'kill']) {
      const refused = await t.env.power(id, action);
      expect(refused.status, action).toBe(409);
      expect(refused.body.errors[0].code).toBe('SVC-OP-409');
    }
    expect((await t.api('POST', `/${id}/rebuild`, {})).status).toBe(409);

    await t.env.temporal.workflow.getHandle(restore.workflow_id).cancel();
    expect(await t.settled(id)).toMatchObject({ status: 'running' });
    expect(t.diskOf(id)).toBe(current);
    expect(agent.hypervisor().instances[id]!.restores).toEqual({});
    expect(await t.latestTask(id)).toMatchObject({ operation: 'restore', state: 'cancelled' });
    expect((await backupsOf(id))[0].state).toBe('available');
  });

  it('a restore that fails at the swap puts the old disk back; the instance is as it was', async () => {
    const { id, agent } = await t.instance();
    const backup = await t.backup(id);
    expect((await t.env.power(id, 'restart')).status).toBe(202);
    await t.settled(id, 'running');
    const current = t.diskOf(id);
    agent.armFault('disk.swap', { mode: 'fail-permanently' });
    expect((await t.api('POST', `/${id}/backups/${backup.uuid}/restore`)).status).toBe(202);
    expect(await t.settled(id)).toMatchObject({ status: 'running' });
    expect(t.diskOf(id)).toBe(current);
    expect(agent.hypervisor().instances[id]!.restores).toEqual({});
    expect(await t.latestTask(id)).toMatchObject({ operation: 'restore', state: 'failed' });
    expect((await backupsOf(id))[0].state).toBe('available');
    const types = (await listTasksOfWorkflow(t.env.db, (await t.env.latestOperation(id)).workflow_id)).map(
      (task) => task.type,
    );
    expect(types).toEqual(expect.arrayContaining(['backup.restore', 'disk.swap', 'disk.revert']));
  });

  it('a backup found corrupt on restore is marked corrupt and the disk is not touched', async () => {
    const { id, agent } = await t.instance();
    const backup = await t.backup(id);
    expect((await t.env.power(id, 'restart')).status).toBe(202);
    await t.settled(id, 'running');
    const current = t.diskOf(id);
    agent.armFault('backup.restore', { mode: 'corrupt' });
    expect((await t.api('POST', `/${id}/backups/${backup.uuid}/restore`)).status).toBe(202);
    expect(await t.settled(id)).toMatchObject({ status: 'running' });
    expect(t.diskOf(id)).toBe(current);
    const task = await t.latestTask(id);
    expect(task).toMatchObject({ operation: 'restore', state: 'failed', error: { code: 'BACKUP_CORRUPT' } });
    expect((await backupsOf(id))[0].state).toBe('corrupt');
  });
});

describe('runs that vanish', () => {
  const reconcile = (instanceId: string) => reconcileOperationsOf(t.env.deps, [instanceId]);

  /** Terminates the run once its agent task runs: the fault armed for it is then spent. */
  const terminateRunning = async (workflowId: string) => {
    await eventually(
      async () => (await listTasksOfWorkflow(t.env.db, workflowId)).some((task) => task.status === 'running'),
      10_000,
      'the task to run',
    );
    await t.env.temporal.workflow.getHandle(workflowId).terminate('operator terminated the run');
  };

  it('a terminated backup is failed and a terminated verify gives its backup back, once reconciled', async () => {
    const { id, agent } = await t.instance();
    const kept = await t.backup(id);
    agent.armFault('backup.verify', { mode: 'hang' });
    expect((await t.api('POST', `/${id}/backups/${kept.uuid}/verify`)).status).toBe(202);
    await terminateRunning((await t.env.latestOperation(id)).workflow_id);
    expect((await reconcile(id)).abandoned).toBeGreaterThanOrEqual(1);
    expect(await t.settled(id)).toMatchObject({ status: 'running' });
    expect((await backupsOf(id)).find((b: Body) => b.uuid === kept.uuid).state).toBe('available');

    agent.armFault('backup.create', { mode: 'hang' });
    const lost = (await t.api('POST', `/${id}/backups`, {})).body.attributes;
    await terminateRunning((await t.env.latestOperation(id)).workflow_id);
    expect((await reconcile(id)).abandoned).toBeGreaterThanOrEqual(1);
    expect(await t.settled(id)).toMatchObject({ status: 'running' });
    expect((await backupsOf(id)).find((b: Body) => b.uuid === lost.uuid)).toMatchObject({
      state: 'failed',
      error: { code: 'ABANDONED', message: 'The operation was stopped before it finished.' },
    });
    // The cause is named: the run ended, not the hypervisor.
    expect(await t.latestTask(id)).toMatchObject({
      operation: 'backup',
      state: 'abandoned',
      error: { code: 'ABANDONED', message: 'The operation was stopped before it finished.' },
    });
  });
});

describe('restore as a new instance', () => {
  it('creates an instance through the create path whose disk is the backup', async () => {
    const { id } = await t.instance();
    expect((await t.env.power(id, 'restart')).status).toBe(202);
    await t.settled(id, 'running');
    const backup = await t.backup(id);
    const backedUp = t.diskOf(id);
    const key = randomUUID();
    const body = { hostname: 'copy.example.com', name: 'the copy' };
    const res = await t.api('POST', `/${id}/backups/${backup.uuid}/restore-new`, body, {
      'Idempotency-Key': key,
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('ratelimit')).toMatch(/^"instance-create";r=\d+;t=\d+$/);
    const created = res.body.attributes;
    expect(created).toMatchObject({ name: 'the copy', hostname: 'copy.example.com', status: 'provisioning' });
    expect(created.uuid).not.toBe(id);
    expect(created.primary_ipv4.startsWith(t.pool.cidr.replace(/0\/24$/, ''))).toBe(true);

    const replay = await t.api('POST', `/${id}/backups/${backup.uuid}/restore-new`, body, {
      'Idempotency-Key': key,
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.attributes.uuid).toBe(created.uuid);

    await t.settled(created.uuid, 'running');
    expect(t.diskOf(created.uuid)).toBe(backedUp);
    const reservation = await t.env.db
      .selectFrom('reservations')
      .select(['cpu_cores', 'released_at'])
      .where('instance_id', '=', created.uuid)
      .executeTakeFirstOrThrow();
    expect(reservation).toMatchObject({ cpu_cores: 1, released_at: null });
    expect((await backupsOf(id))[0].state).toBe('available');
  });

  it('refuses a plan too small for the backup, a backup not available, and unknown fields', async () => {
    const { id, agent } = await t.instance();
    const backup = await t.backup(id);
    const small = await t.env.db
      .insertInto('plans')
      .values({
        code: `tiny-${randomUUID().slice(0, 6)}`,
        name: 'Tiny',
        cpu_cores: 1,
        memory_mb: 512,
        disk_mb: 1024,
      })
      .returning('code')
      .executeTakeFirstOrThrow();
    const tooSmall = await t.api('POST', `/${id}/backups/${backup.uuid}/restore-new`, {
      hostname: 'copy.example.com',
      plan: small.code,
    });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.errors[0].source).toEqual({ field: 'plan' });
    const extra = await t.api('POST', `/${id}/backups/${backup.uuid}/restore-new`, {
      hostname: 'copy.example.com',
      image: 'debian-12',
    });
    expect(extra.status).toBe(400);
    expect(
      (await t.api('POST', `/${id}/backups/${backup.uuid}/restore-new`, { hostname: '-bad-' })).status,
    ).toBe(400);

    agent.armFault('backup.create', { mode: 'fail-permanently' });
    const failed = (await t.api('POST', `/${id}/backups`, {})).body.attributes;
    await t.listed(`/${id}/backups`, failed.uuid, (b) => b.state === 'failed', 'the failure');
    const refused = await t.api('POST', `/${id}/backups/${failed.uuid}/restore-new`, {
      hostname: 'copy.example.com',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('SVC-CONFLICT-409');
  });

  it('a backup that no longer matches its checksum fails the provisioning, which releases what it held', async () => {
    const { id } = await t.instance();
    const backup = await t.backup(id);
    // On both hosts, wherever placement puts it; on a create from no backup the fault does nothing.
    for (const host of t.hosts) host.agent.armFault('instance.create', { mode: 'corrupt' });
    const res = await t.api('POST', `/${id}/backups/${backup.uuid}/restore-new`, {
      hostname: 'copy.example.com',
    });
    const created = res.body.attributes;
    await t.settled(created.uuid, 'error');
    expect(await t.latestTask(created.uuid)).toMatchObject({
      operation: 'provision',
      state: 'failed',
      error: { code: 'BACKUP_CORRUPT' },
    });
    const reservation = await t.env.db
      .selectFrom('reservations')
      .select('released_at')
      .where('instance_id', '=', created.uuid)
      .executeTakeFirstOrThrow();
    expect(reservation.released_at).not.toBeNull();
  });
});
