import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';

/** Rescue mode through the Client API, with real (in-process) agents keeping the guest's mode. */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack();
});
afterAll(() => t.close());

const rescue = async (id: string) => (await t.api('GET', `/${id}/rescue`)).body.attributes;
const act = (id: string, action: 'enter' | 'exit', body?: unknown) =>
  t.api('POST', `/${id}/rescue/${action}`, body);
const inRescue = (id: string) => t.hostOf(id).hypervisor().instances[id]!.rescue ?? false;

describe('rescue mode', () => {
  it('enters and leaves rescue mode; meanwhile every other operation is refused; each twice alike is refused the second time', async () => {
    const { id } = await t.instance();
    expect(await rescue(id)).toEqual({ active: false, since: null, changing: null });
    const entered = await act(id, 'enter');
    expect(entered.status, JSON.stringify(entered.body)).toBe(202);
    expect(entered.body.attributes).toMatchObject({ active: false, changing: 'entering' });
    await t.settled(id, 'rescue');
    expect(await rescue(id)).toMatchObject({ active: true, since: expect.any(String), changing: null });
    expect(inRescue(id)).toBe(true);

    for (const [method, path, body] of [
      ['POST', `/${id}/power`, { action: 'stop' }],
      ['POST', `/${id}/power`, { action: 'restart' }],
      ['POST', `/${id}/backups`, {}],
      ['POST', `/${id}/rescue/enter`, {}],
    ] as const) {
      const res = await t.api(method, path, body);
      expect(res.status, path).toBe(409);
      expect(res.body.errors[0]).toMatchObject({ code: 'SVC-CONFLICT-409' });
    }
    expect((await t.api('POST', `/${id}/power`, { action: 'stop' })).body.errors[0].detail).toMatch(
      /rescue mode/,
    );

    expect((await act(id, 'exit', {})).status).toBe(202);
    await t.settled(id, 'running');
    expect(await rescue(id)).toEqual({ active: false, since: null, changing: null });
    expect(inRescue(id)).toBe(false);
    expect((await act(id, 'exit')).status).toBe(409);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'rescue_exit', state: 'succeeded' });
  });

  it('a stopped instance enters it too; two enters at once: one runs; an instance in rescue mode is deleted', async () => {
    const { id } = await t.instance();
    expect((await t.api('POST', `/${id}/power`, { action: 'stop' })).status).toBe(202);
    await t.settled(id, 'stopped');
    const both = await Promise.all([act(id, 'enter'), act(id, 'enter')]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    await t.settled(id, 'rescue');
    expect(t.hostOf(id).hypervisor().instances[id]).toMatchObject({ rescue: true, power_state: 'running' });
    expect((await t.api('DELETE', `/${id}`)).status).toBe(202);
    await eventually(
      async () => ((await t.api('GET', `/${id}`)).status === 404 ? true : undefined),
      20_000,
      'the instance to go',
    );
  });

  it('a hypervisor that fails to enter it leaves the instance as it was, and the task history says so', async () => {
    const { id } = await t.instance();
    t.hostOf(id).armFault('rescue.enter', { mode: 'fail-permanently' });
    expect((await act(id, 'enter')).status).toBe(202);
    await t.settled(id, 'running');
    expect(await rescue(id)).toMatchObject({ active: false });
    expect(inRescue(id)).toBe(false);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'rescue_enter', state: 'failed' });
  });

  it('refuses bad input, another customer’s instance and no key', async () => {
    const { id } = await t.instance();
    expect((await act(id, 'enter', { extra: 1 })).status).toBe(400);
    expect((await t.env.stranger.call('POST', `/api/client/cloud/${id}/rescue/enter`)).status).toBe(404);
    expect((await t.env.stranger.call('GET', `/api/client/cloud/${id}/rescue`)).status).toBe(404);
    expect((await t.api('GET', `/${randomUUID()}/rescue`)).status).toBe(404);
    expect((await t.env.call(null, 'GET', `/api/client/cloud/${id}/rescue`)).status).toBe(401);
    expect(await rescue(id)).toMatchObject({ active: false, changing: null });
    expect(inRescue(id)).toBe(false);
  });
});
