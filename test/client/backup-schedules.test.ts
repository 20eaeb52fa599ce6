import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { backupScheduleId } from '../../domain/backups.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';

/**
 * Backup schedules: Temporal Schedules made, changed, paused, resumed and deleted by the API, and
 * their runs triggered through Temporal (never by waiting): a backup each, retention that never
 * removes a protected backup, a run that finds the instance busy and skips, and the schedules of a
 * deleted instance ended.
 */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack({ MAX_BACKUP_SCHEDULES_PER_INSTANCE: '2', MAX_BACKUPS_PER_INSTANCE: '6' });
});
afterAll(() => t.close());

const schedulesOf = async (instanceId: string) =>
  (await t.api('GET', `/${instanceId}/backup-schedules`)).body.data.map((s: Body) => s.attributes);
const backupsOf = async (instanceId: string) =>
  (await t.api('GET', `/${instanceId}/backups?per_page=100`)).body.data.map((b: Body) => b.attributes);
const handleOf = (instanceId: string, policyId: string) =>
  t.env.temporal.schedule.getHandle(backupScheduleId(instanceId, policyId));

/** 03:00 UTC on 29 February: a schedule that will not fire by itself while the tests run. */
const RARELY = '0 3 29 2 *';

async function schedule(instanceId: string, body: Record<string, unknown> = {}): Promise<Body> {
  const res = await t.api('POST', `/${instanceId}/backup-schedules`, {
    name: `nightly-${randomUUID().slice(0, 6)}`,
    cron: RARELY,
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.attributes;
}

/**
 * A run's workflow id is the schedule's and the second it was started in, so two triggers of one
 * schedule in the same second would be one run (a schedule of ours runs at most hourly).
 */
let lastTrigger = 0;
async function trigger(instanceId: string, policyId: string): Promise<void> {
  const wait = lastTrigger + 1_100 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  lastTrigger = Date.now();
  await handleOf(instanceId, policyId).trigger();
}

/** Triggers the schedule through Temporal and waits for the run it started to be recorded. */
async function triggered(instanceId: string, policyId: string): Promise<Body> {
  const before = (await schedulesOf(instanceId)).find((s: Body) => s.uuid === policyId).last_run?.at ?? null;
  await trigger(instanceId, policyId);
  const run = await eventually(
    async () => {
      const now = (await schedulesOf(instanceId)).find((s: Body) => s.uuid === policyId).last_run;
      return now && now.at !== before ? now : undefined;
    },
    20_000,
    'the scheduled run',
  );
  await t.settled(instanceId);
  return run;
}

describe('creating schedules', () => {
  it('makes a Temporal Schedule under a readable id: cron, overlap skip, catch-up window, the run’s input', async () => {
    const { id } = await t.instance();
    const created = await schedule(id, { name: 'nightly', keep_last: 3, keep_days: 14 });
    expect(created).toMatchObject({
      name: 'nightly',
      cron: RARELY,
      interval_minutes: null,
      keep_last: 3,
      keep_days: 14,
      paused: false,
      last_run: null,
    });
    const description = await handleOf(id, created.uuid).describe();
    expect(description.scheduleId).toBe(`backup-schedule-${id}-${created.uuid}`);
    expect(description.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 3, end: 3, step: 1 }] });
    expect(description.policies).toMatchObject({
      overlap: ScheduleOverlapPolicy.SKIP,
      catchupWindow: 3_600_000,
    });
    expect(description.state.paused).toBe(false);
    expect(description.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'scheduledBackup',
      workflowId: `backup-schedule-${id}-${created.uuid}`,
      taskQueue: t.env.config.TEMPORAL_TASK_QUEUE,
      args: [{ policyId: created.uuid, instanceId: id }],
    });
    expect(await schedulesOf(id)).toEqual([created]);

    const interval = await schedule(id, { name: 'twice a day', cron: undefined, interval_minutes: 720 });
    expect(interval).toMatchObject({ cron: null, interval_minutes: 720, keep_last: 6, keep_days: null });
    const every = (await handleOf(id, interval.uuid).describe()).spec.intervals?.[0];
    expect(every).toMatchObject({ every: 720 * 60_000 });
  });

  it('refuses bad input naming the field, a name taken, and more than the limit', async () => {
    const { id } = await t.instance();
    const refusals: [Record<string, unknown>, string][] = [
      [{ name: 'a', cron: '*/5 * * * *' }, 'cron'],
      [{ name: 'a', cron: '0 3 * *' }, 'cron'],
      [{ name: 'a' }, 'cron'],
      [{ name: 'a', cron: '0 3 * * *', interval_minutes: 60 }, 'interval_minutes'],
      [{ name: 'a', interval_minutes: 59 }, 'interval_minutes'],
      [{ name: 'a', cron: '0 3 * * *', keep_last: 7, keep_days: 0 }, 'keep_days'],
      [{ name: 'a', cron: '0 3 * * *', keep_last: 7 * 1000 }, 'keep_last'],
      // Above MAX_BACKUPS_PER_INSTANCE (6 here): refused by the service, naming the field all the same.
      [{ name: 'a', cron: '0 3 * * *', keep_last: 7 }, 'keep_last'],
      [{ cron: '0 3 * * *' }, 'name'],
      [{ name: 'a', cron: '0 3 * * *', policy_id: randomUUID() }, ''],
    ];
    for (const [body, field] of refusals) {
      const res = await t.api('POST', `/${id}/backup-schedules`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (field) expect(res.body.errors[0].source, JSON.stringify(body)).toEqual({ field });
    }
    expect(await schedulesOf(id)).toEqual([]);

    const first = await schedule(id, { name: 'daily' });
    const same = await t.api('POST', `/${id}/backup-schedules`, { name: 'daily', cron: '0 4 * * *' });
    expect(same.status).toBe(409);
    expect(same.body.errors[0].code).toBe('SVC-CONFLICT-409');
    await schedule(id);
    const third = await t.api('POST', `/${id}/backup-schedules`, { name: 'third', cron: '0 5 * * *' });
    expect(third.status).toBe(409);
    expect(third.body.errors[0].code).toBe('SVC-QUOTA-409');
    expect(
      (await t.api('PATCH', `/${id}/backup-schedules/${first.uuid}`, { interval_minutes: 30 })).status,
    ).toBe(400);
  });
});

describe('scheduled runs, triggered through Temporal', () => {
  it('take a backup each; retention keeps the newest and never removes a protected one', async () => {
    const { id } = await t.instance();
    const policy = await schedule(id, { keep_last: 1 });

    const first = await triggered(id, policy.uuid);
    expect(first).toMatchObject({ outcome: 'backed_up', reason: null, removed: 0 });
    const [b1] = await backupsOf(id);
    expect(b1).toMatchObject({ uuid: first.backup, state: 'available', schedule: policy.uuid });
    expect(b1.name).toMatch(new RegExp(`^${policy.name} \\d{4}-`));
    expect((await t.api('POST', `/${id}/backups/${b1.uuid}/protect`, { protected: true })).status).toBe(200);

    // The protected backup is outside retention: kept, and not counted among the one kept.
    const second = await triggered(id, policy.uuid);
    expect(second).toMatchObject({ outcome: 'backed_up', removed: 0 });
    const third = await triggered(id, policy.uuid);
    expect(third).toMatchObject({ outcome: 'backed_up', removed: 1 });
    const left = await backupsOf(id);
    expect(left.map((b: Body) => [b.uuid, b.state, b.protected])).toEqual([
      [third.backup, 'available', false],
      [b1.uuid, 'available', true],
    ]);
    expect(t.storeOf().backups[second.backup]).toBeUndefined();
    expect(t.storeOf().backups[b1.uuid]).toBeDefined();

    // A backup made on request is not the schedule's to remove.
    const manual = await t.backup(id);
    const fourth = await triggered(id, policy.uuid);
    expect(fourth.removed).toBe(1);
    expect((await backupsOf(id)).map((b: Body) => b.uuid)).toEqual([fourth.backup, manual.uuid, b1.uuid]);

    // The run is the backup operation's workflow, found by the instance's search attribute.
    const operation = await t.env.latestOperation(id);
    expect(operation).toMatchObject({ kind: 'backup', state: 'succeeded' });
    expect(operation.workflow_id.startsWith(`backup-schedule-${id}-${policy.uuid}-`)).toBe(true);
    const runs = await eventually(
      async () => {
        const found: string[] = [];
        for await (const run of t.env.temporal.workflow.list({
          query: `WorkflowType = 'scheduledBackup' AND ${SEARCH_ATTRIBUTES.instance} = '${id}'`,
        }))
          found.push(run.workflowId);
        return found.length === 4 ? found : undefined;
      },
      10_000,
      'the runs to be listed',
    );
    expect(runs).toContain(operation.workflow_id);
  });

  it('a run that finds the instance busy skips and says why; the next one backs up', async () => {
    const { id, agent } = await t.instance();
    const policy = await schedule(id, { interval_minutes: 44_640, cron: undefined });
    agent.armFault('instance.power', { mode: 'hang' });
    expect((await t.env.power(id, 'stop')).status).toBe(202);
    const stop = await t.env.latestOperation(id);
    await eventually(
      async () => (await listTasksOfWorkflow(t.env.db, stop.workflow_id))[0]?.status === 'running',
      10_000,
      'the stop to run',
    );
    await trigger(id, policy.uuid);
    const skipped = await eventually(
      async () => (await schedulesOf(id))[0].last_run ?? undefined,
      20_000,
      'the skipped run',
    );
    expect(skipped).toMatchObject({
      outcome: 'skipped',
      backup: null,
      reason: { code: 'SVC-OP-409', message: 'Another operation (stop) is in progress on this instance.' },
    });
    expect(await backupsOf(id)).toEqual([]);

    expect((await t.env.power(id, 'kill')).status).toBe(202);
    await t.settled(id, 'stopped');
    expect(await triggered(id, policy.uuid)).toMatchObject({ outcome: 'backed_up' });
  });

  it('a backup that fails is recorded on the schedule, and its retention removes it at once', async () => {
    const { id, agent } = await t.instance();
    const policy = await schedule(id, { keep_last: 2 });
    agent.armFault('backup.create', { mode: 'fail-permanently' });
    const failed = await triggered(id, policy.uuid);
    expect(failed).toMatchObject({
      outcome: 'failed',
      reason: { code: 'OPERATION_FAILED', message: 'The hypervisor could not complete the operation.' },
      removed: 1,
    });
    expect(await backupsOf(id)).toEqual([]);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'backup', state: 'failed' });
    const next = await triggered(id, policy.uuid);
    expect(next).toMatchObject({ outcome: 'backed_up', removed: 0 });
    expect((await backupsOf(id)).map((b: Body) => b.uuid)).toEqual([next.backup]);
  });
});

describe('changing schedules', () => {
  it('pauses and resumes the Temporal Schedule, and changes its timing', async () => {
    const { id } = await t.instance();
    const policy = await schedule(id);
    const paused = await t.api('PATCH', `/${id}/backup-schedules/${policy.uuid}`, { paused: true });
    const pausedBody = paused.body;
    expect(paused.status, JSON.stringify(pausedBody)).toBe(200);
    expect(pausedBody.attributes).toMatchObject({ paused: true, cron: RARELY });
    expect((await handleOf(id, policy.uuid).describe()).state).toMatchObject({ paused: true });
    expect((await schedulesOf(id))[0].paused).toBe(true);

    const resumed = await t.api('PATCH', `/${id}/backup-schedules/${policy.uuid}`, { paused: false });
    const resumedBody = resumed.body;
    // A refusal shows its envelope: a 503 here once came from the Temporal Schedule's update.
    expect(resumed.status, JSON.stringify(resumedBody)).toBe(200);
    expect(resumedBody.attributes.paused).toBe(false);
    expect((await handleOf(id, policy.uuid).describe()).state.paused).toBe(false);
    // A resumed schedule runs again.
    expect(await triggered(id, policy.uuid)).toMatchObject({ outcome: 'backed_up' });

    const changed = await t.api('PATCH', `/${id}/backup-schedules/${policy.uuid}`, {
      interval_minutes: 90,
      keep_days: 30,
      name: 'every ninety',
    });
    expect(changed.body.attributes).toMatchObject({
      name: 'every ninety',
      cron: null,
      interval_minutes: 90,
      keep_days: 30,
      paused: false,
    });
    const description = await handleOf(id, policy.uuid).describe();
    expect(description.spec.intervals?.[0]).toMatchObject({ every: 90 * 60_000 });
    expect(description.spec.calendars ?? []).toEqual([]);

    const events = (await t.api('GET', `/${id}/activity?per_page=100`)).body.data.map(
      (a: Body) => a.attributes.event,
    );
    expect(events).toEqual(
      expect.arrayContaining([
        'instance.backup_schedule.created',
        'instance.backup_schedule.paused',
        'instance.backup_schedule.resumed',
        'instance.backup_schedule.updated',
        'instance.backup_schedule.ran',
      ]),
    );
  });

  it('deleting a schedule deletes its Temporal Schedule and keeps its backups', async () => {
    const { id } = await t.instance();
    const policy = await schedule(id);
    const run = await triggered(id, policy.uuid);
    const res = await t.api('DELETE', `/${id}/backup-schedules/${policy.uuid}`);
    expect(res.status).toBe(204);
    await expect(handleOf(id, policy.uuid).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect(await schedulesOf(id)).toEqual([]);
    expect((await backupsOf(id))[0]).toMatchObject({ uuid: run.backup, schedule: null });
    expect((await t.api('DELETE', `/${id}/backup-schedules/${policy.uuid}`)).status).toBe(404);
    expect((await t.api('PATCH', `/${id}/backup-schedules/${policy.uuid}`, { paused: true })).status).toBe(
      404,
    );
  });

  it('deleting the instance ends its schedules', async () => {
    const { id } = await t.instance();
    const policies = [await schedule(id), await schedule(id, { interval_minutes: 44_640, cron: undefined })];
    expect((await t.api('DELETE', `/${id}`)).status).toBe(202);
    for (const policy of policies)
      await expect(handleOf(id, policy.uuid).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    const rows = await t.env.db
      .selectFrom('backup_policies')
      .select('id')
      .where('instance_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
    await eventually(async () => (await t.api('GET', `/${id}`)).status === 404, 10_000, 'the instance to go');
  });
});
