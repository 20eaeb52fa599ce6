import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledActionScheduleId } from '../../domain/instances/scheduled-actions.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';

/**
 * Scheduled power actions through the Client API: each a Temporal Schedule (looked at directly),
 * and its runs triggered now rather than waited for: a run begins the action as a customer's
 * request would, and one that meets another operation is skipped, never queued.
 */
const LIMIT = 3;
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack({ MAX_SCHEDULED_ACTIONS_PER_INSTANCE: String(LIMIT) });
});
afterAll(() => t.close());

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
const schedule = (instanceId: string, actionId: string) =>
  t.env.temporal.schedule.getHandle(scheduledActionScheduleId(instanceId, actionId));
async function create(id: string, body: Body, status = 201): Promise<Body> {
  const res = await t.api('POST', `/${id}/schedules`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.attributes;
}
const listed = async (id: string): Promise<Body[]> =>
  (await t.api('GET', `/${id}/schedules?per_page=100`)).body.data.map((d: Body) => d.attributes);
/** Runs the action now, and waits until the run recorded what it did. */
async function runNow(id: string, actionId: string): Promise<Body> {
  const before = (await listed(id)).find((a) => a.uuid === actionId)?.last_run?.at;
  await schedule(id, actionId).trigger();
  return eventually(
    async () => {
      const run = (await listed(id)).find((a) => a.uuid === actionId)?.last_run;
      return run && run.at !== before ? run : undefined;
    },
    20_000,
    'the run’s record',
  );
}

describe('scheduled actions', () => {
  it('are made on a cron pattern or once, each a Temporal Schedule; listed; deleted with their schedule, twice alike', async () => {
    const { id } = await t.instance();
    const weekly = await create(id, { action: 'restart', cron: '0 3 * * 1' });
    const once = await create(id, { action: 'stop', run_at: inAnHour() });
    expect(weekly).toMatchObject({ action: 'restart', cron: '0 3 * * 1', run_at: null, last_run: null });
    expect(once).toMatchObject({ action: 'stop', cron: null });
    expect((await listed(id)).map((a) => a.uuid)).toEqual([weekly.uuid, once.uuid]);

    const weeklySchedule = await schedule(id, weekly.uuid).describe();
    // Temporal keeps a cron pattern as its calendar.
    expect(weeklySchedule.spec.calendars).toHaveLength(1);
    expect(weeklySchedule.action).toMatchObject({ workflowType: 'scheduledPowerAction' });
    const onceSchedule = await schedule(id, once.uuid).describe();
    expect(onceSchedule.state.remainingActions).toBe(1);

    for (const status of [204, 404])
      expect((await t.api('DELETE', `/${id}/schedules/${weekly.uuid}`)).status).toBe(status);
    await expect(schedule(id, weekly.uuid).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect((await listed(id)).map((a) => a.uuid)).toEqual([once.uuid]);
  });

  it('refuses bad input, a foreign instance or action, and one past the limit (also when asked at once), changing nothing', async () => {
    const { id } = await t.instance();
    for (const body of [
      { action: 'stop' },
      { action: 'stop', cron: '0 3 * * *', run_at: inAnHour() },
      { action: 'kill', cron: '0 3 * * *' },
      { action: 'stop', cron: 'every day' },
      { action: 'stop', cron: '* * * * *' },
      { action: 'stop', run_at: '2020-01-01T00:00:00Z' },
      { action: 'stop', run_at: new Date(Date.now() + 400 * 86_400_000).toISOString() },
      { action: 'stop', run_at: 'tomorrow' },
      { action: 'stop', cron: '0 3 * * *', extra: 1 },
    ]) {
      const res = await t.api('POST', `/${id}/schedules`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].code).toBe('SVC-REQ-400');
    }
    expect(await listed(id)).toEqual([]);

    const made = await Promise.all(
      Array.from({ length: LIMIT + 2 }, () =>
        t.api('POST', `/${id}/schedules`, { action: 'stop', cron: '0 4 * * *' }),
      ),
    );
    expect(made.filter((r) => r.status === 201)).toHaveLength(LIMIT);
    expect(made.filter((r) => r.status === 409).map((r) => r.body.errors[0].code)).toEqual([
      'SVC-QUOTA-409',
      'SVC-QUOTA-409',
    ]);
    expect(await listed(id)).toHaveLength(LIMIT);

    const mine = (await listed(id))[0]!.uuid;
    const stranger = (method: string, path: string, body?: unknown) =>
      t.env.stranger.call(method, `/api/client/cloud${path}`, body);
    expect((await stranger('GET', `/${id}/schedules`)).status).toBe(404);
    expect((await stranger('POST', `/${id}/schedules`, { action: 'stop', cron: '0 3 * * *' })).status).toBe(
      404,
    );
    expect((await stranger('DELETE', `/${id}/schedules/${mine}`)).status).toBe(404);
    expect((await t.api('DELETE', `/${id}/schedules/${randomUUID()}`)).status).toBe(404);
    expect(await listed(id)).toHaveLength(LIMIT);
  });

  it('a run does the action as the customer’s request would; the next, finding nothing to do, is skipped with why, as is one on a suspended instance', async () => {
    const { id } = await t.instance();
    const stop = await create(id, { action: 'stop', cron: '0 5 * * *' });
    expect(await runNow(id, stop.uuid)).toMatchObject({
      outcome: 'ran',
      power_state: 'stopped',
      reason: null,
    });
    await t.settled(id, 'stopped');
    expect(t.hostOf(id).hypervisor().instances[id]!.power_state).toBe('stopped');
    // Stopped already: a stop does not start from there.
    expect(await runNow(id, stop.uuid)).toMatchObject({
      outcome: 'skipped',
      reason: { code: 'SVC-CONFLICT-409' },
    });
    // Suspended by the provider: the customer's schedule is refused as their own request would be.
    const start = await create(id, { action: 'start', cron: '0 7 * * *' });
    expect((await t.env.admin.call('POST', `/api/application/cloudsvc/instances/${id}/suspend`)).status).toBe(
      200,
    );
    expect(await runNow(id, start.uuid)).toMatchObject({
      outcome: 'skipped',
      reason: { code: 'INSTANCE_SUSPENDED' },
    });
    expect(t.hostOf(id).hypervisor().instances[id]!.power_state).toBe('stopped');
    const log = await t.env.db
      .selectFrom('activity_log')
      .select('actor')
      .where('instance_id', '=', id)
      .where('event', '=', 'instance.scheduled_action.ran')
      .execute();
    expect(log).toEqual(Array.from({ length: 3 }, () => ({ actor: 'system:scheduled-action' })));
  });

  it('a run that meets a running operation is skipped at once, not queued behind it; deleting the instance ends its actions', async () => {
    const { id } = await t.instance();
    const restart = await create(id, { action: 'restart', cron: '0 6 * * *' });
    t.hostOf(id).armFault('instance.power', { mode: 'hang', times: 1 });
    expect((await t.api('POST', `/${id}/power`, { action: 'stop' })).status).toBe(202);
    expect(await runNow(id, restart.uuid)).toMatchObject({
      outcome: 'skipped',
      reason: { code: 'SVC-OP-409' },
    });
    // The hung stop is ended by a kill; the skipped restart never ran after it.
    expect((await t.api('POST', `/${id}/power`, { action: 'kill' })).status).toBe(202);
    await t.settled(id, 'stopped');
    expect(
      t
        .hostOf(id)
        .hypervisor()
        .applied.filter((a) => a.instance_id === id && a.type === 'instance.power'),
    ).not.toContainEqual(expect.objectContaining({ detail: expect.stringContaining('restart') }));

    expect((await t.api('DELETE', `/${id}`)).status).toBe(202);
    await expect(schedule(id, restart.uuid).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect(
      await t.env.db.selectFrom('scheduled_actions').select('id').where('instance_id', '=', id).execute(),
    ).toEqual([]);
  });
});
