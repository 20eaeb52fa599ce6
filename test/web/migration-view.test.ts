import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { buildApp } from '../../server/app.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { migrationPair, requestedMigration, transferHanging } from '../support/migrations.js';
import { type PageBrowser, pageBrowser } from '../support/pages.js';
import { type Stack, startStack } from '../support/stack.js';

const UI = 'http://127.0.0.1:8233';
let env: Stack;
let b: PageBrowser;

beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: { MIGRATION_SOURCE_RETENTION_MS: '300', TEMPORAL_UI_URL: UI },
  });
  b = pageBrowser((path, init) => env.app.request(path, init));
  expect((await b.login(env.admin.key)).status).toBe(303);
});
afterAll(() => env.close());

const view = (id: string) => `/admin/cloudsvc/migrations/${id}/view`;
const api = (method: string, path: string, body?: unknown) =>
  env.call(env.admin, method, `/admin/cloudsvc${path}`, body);
const stateOf = async (id: string): Promise<string> =>
  (await api('GET', `/migrations/${id}`)).body.attributes.state;
const until = (id: string, states: string[]) =>
  eventually(async () => states.includes(await stateOf(id)), 30_000, `migration in ${states.join(' or ')}`);

const pair = () => migrationPair(env);

const requested = (instanceId: string, targetId: string) => requestedMigration(env, instanceId, targetId);

/** A migration whose transfer hangs on the target: before its point of no return, for as long as a test needs. */
async function hanging() {
  const p = await pair();
  p.targetAgent.armFault('disk.transfer', { mode: 'hang' });
  const migration = await requested(p.instance.id, p.target.id);
  await transferHanging(env, migration.workflow_id);
  return { ...p, migration };
}

/** The reason form of an action, sent; `confirm` answers the confirmation too. */
const act = (id: string, action: string, reason: string, confirm = false) =>
  b.post(view(id), { csrf: b.csrf(), action, reason, ...(confirm ? { confirm: 'yes' } : {}) });

describe('GET /admin/cloudsvc/migrations/{uuid}/view', () => {
  it('shows a completed migration: each state with its time, both sides, its convergence policy, the point of no return, the run; no action', async () => {
    const { source, target, instance } = await pair();
    const migration = await requested(instance.id, target.id);
    await until(migration.uuid, ['CLEANED_UP']);
    const page = await b.get(view(migration.uuid));
    expect(page.status).toBe(200);
    const shown = (await api('GET', `/migrations/${migration.uuid}`)).body.attributes;
    for (const h of shown.history) expect(page.html).toContain(`<time datetime="${h.at}">`);
    expect(page.html).toContain(`${source.name} → ${target.name}`);
    expect(page.html).toMatch(
      /Point of no return<\/dt><dd><span class="mono">(LIVE_MIGRATING|STARTING_TARGET)<\/span>: passed/,
    );
    expect(page.html).toContain(`href="${shown.temporal_ui_url}"`);
    expect(page.html).toContain(
      '<dt>Convergence</dt><dd>downtime ≤ 500 ms, no bandwidth cap, auto-converge off, post-copy never, ' +
        '800 s/GiB to complete, 150 s without progress</dd>',
    );
    expect(page.html).toContain('No action is possible in this state');
    expect(page.html).toContain('data-live-final');
  });

  it('shows no secret, transfer token or agent task id', async () => {
    const { target, instance } = await pair();
    const migration = await requested(instance.id, target.id);
    await until(migration.uuid, ['CLEANED_UP']);
    const page = await b.get(view(migration.uuid));
    const tasks = await listTasksOfWorkflow(env.db, migration.workflow_id);
    expect(tasks.length).toBeGreaterThan(5);
    for (const task of tasks) expect(page.html).not.toContain(task.id);
    expect(page.html).not.toContain('cst_');
    expect(page.html).not.toContain('sealed:');
    const tokens = await env.db
      .selectFrom('transfer_tokens')
      .select('token_hash')
      .where('migration_id', '=', migration.uuid)
      .execute();
    for (const token of tokens) expect(page.html).not.toContain(token.token_hash);
  });

  it('answers an unknown or malformed id with a 404 page', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const page = await b.get(view(id));
      expect(page.status).toBe(404);
      expect(page.html).toContain('SVC-RES-404');
    }
  });
});

describe('the actions of the view', () => {
  it('cancels before the point of no return: reason required, then a confirmation, then the rollback', async () => {
    const { migration, sourceAgent, instance } = await hanging();
    const page = await b.get(view(migration.uuid));
    expect(page.html).toContain('Cancel the migration…');
    expect(page.html).toContain('Roll back the migration…');
    expect(page.html).not.toContain('Retry the failed step…');

    const noReason = await act(migration.uuid, 'cancel', '   ');
    expect(noReason.status).toBe(400);
    expect(noReason.html).toContain('id="reason-cancel-problem"');
    const asked = await act(migration.uuid, 'cancel', 'wrong target');
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('Yes, cancel the migration');
    expect(asked.html).toContain('<q>wrong target</q>');
    expect(await stateOf(migration.uuid)).toBe('TRANSFERRING');

    const done = await act(migration.uuid, 'cancel', 'wrong target', true);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${view(migration.uuid)}?done=cancel`);
    await until(migration.uuid, ['ROLLED_BACK']);
    expect(sourceAgent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    const after = await b.get(done.location!);
    expect(after.html).toContain('Cancel requested');
    expect(after.html).toContain('No action is possible in this state');

    const again = await act(migration.uuid, 'rollback', 'twice', true);
    expect(again.status).toBe(409);
    expect(again.html).toContain('MIGRATION_FINISHED');
  });

  it('takes two confirmed cancels at once: the migration rolls back once, neither answer is a fault', async () => {
    const { migration } = await hanging();
    await b.get(view(migration.uuid));
    const answers = await Promise.all([
      act(migration.uuid, 'cancel', 'first', true),
      act(migration.uuid, 'cancel', 'second', true),
    ]);
    for (const answer of answers) expect([303, 409]).toContain(answer.status);
    await until(migration.uuid, ['ROLLED_BACK']);
    const shown = (await api('GET', `/migrations/${migration.uuid}`)).body.attributes;
    expect(shown.history.filter((h: Body) => h.state === 'ROLLED_BACK')).toHaveLength(1);
  });

  it('refuses a confirmed action without the session’s form token, and changes nothing', async () => {
    const { migration } = await hanging();
    const forged = await b.post(view(migration.uuid), {
      csrf: 'forged',
      action: 'cancel',
      reason: 'x',
      confirm: 'yes',
    });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('SVC-CSRF-403');
    const elsewhere = await b.post(
      view(migration.uuid),
      { csrf: b.csrf(), action: 'cancel', reason: 'x', confirm: 'yes' },
      { Origin: 'https://evil.example' },
    );
    expect(elsewhere.status).toBe(403);
    expect(await stateOf(migration.uuid)).toBe('TRANSFERRING');
    await api('POST', `/migrations/${migration.uuid}/cancel`, { reason: 'test over' });
    await until(migration.uuid, ['ROLLED_BACK']);
  });

  it('refuses an action the form does not know, with 400', async () => {
    const { migration } = await hanging();
    await b.get(view(migration.uuid));
    const unknown = await act(migration.uuid, 'restart', 'x', true);
    expect(unknown.status).toBe(400);
    expect(await stateOf(migration.uuid)).toBe('TRANSFERRING');
    await api('POST', `/migrations/${migration.uuid}/cancel`, { reason: 'test over' });
    await until(migration.uuid, ['ROLLED_BACK']);
  });

  it('past the point of no return offers only the recovery decisions, and acts on one', async () => {
    const { target, targetAgent, instance } = await pair();
    targetAgent.armFault('migration.start_target', { mode: 'fail-permanently' });
    const migration = await requested(instance.id, target.id);
    await until(migration.uuid, ['RECOVERY_REQUIRED']);
    const page = await b.get(view(migration.uuid));
    expect(page.html).not.toContain('Cancel the migration…');
    for (const ask of [
      'Retry the failed step…',
      'The target is good: commit there…',
      'The source is good: give it back…',
    ])
      expect(page.html).toContain(ask);
    expect(page.html).toContain('<li class="failed"><span class="mono">STARTING_TARGET</span>');

    const refused = await act(migration.uuid, 'cancel', 'undo', true);
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('MIGRATION_PAST_POINT_OF_NO_RETURN');
    const retried = await act(migration.uuid, 'retry', 'the target host was rebooted', true);
    expect(retried.status).toBe(303);
    await until(migration.uuid, ['CLEANED_UP']);
    const shown = (await api('GET', `/migrations/${migration.uuid}`)).body.attributes;
    expect(shown.recovery).toMatchObject({ decision: 'retry', reason: 'the target host was rebooted' });
  });

  it('with the workflow service unreachable shows 503 and changes nothing; twice, then the cancel goes', async () => {
    const { migration } = await hanging();
    const cut = buildApp({ ...env.deps, config: { ...env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } });
    const cutBrowser = pageBrowser((path, init) => cut.request(path, init));
    for (const [name, value] of b.cookies) cutBrowser.cookies.set(name, value);
    await cutBrowser.get(view(migration.uuid));
    for (let round = 0; round < 2; round++) {
      const refused = await cutBrowser.post(view(migration.uuid), {
        csrf: cutBrowser.csrf(),
        action: 'cancel',
        reason: 'maintenance',
        confirm: 'yes',
      });
      expect(refused.status).toBe(503);
      expect(refused.html).toContain('SVC-SYS-503');
      expect(refused.html).toContain('Nothing was changed.');
      expect(await stateOf(migration.uuid)).toBe('TRANSFERRING');
    }
    await b.get(view(migration.uuid));
    expect((await act(migration.uuid, 'cancel', 'maintenance', true)).status).toBe(303);
    await until(migration.uuid, ['ROLLED_BACK']);
  });

  it('answers a live refresh with its region alone', async () => {
    const { migration } = await hanging();
    const part = await b.get(`${view(migration.uuid)}?part=live`, { 'X-Live-Refresh': '1' });
    expect(part.html.startsWith('<section id="migration-live"')).toBe(true);
    expect(part.html).not.toContain('data-live-final');
    const actions = await b.get(`${view(migration.uuid)}?part=actions`, { 'X-Live-Refresh': '1' });
    expect(actions.html.startsWith('<section id="migration-actions"')).toBe(true);
    await api('POST', `/migrations/${migration.uuid}/cancel`, { reason: 'test over' });
    await until(migration.uuid, ['ROLLED_BACK']);
  });
});
