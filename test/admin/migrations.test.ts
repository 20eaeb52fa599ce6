import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { findHypervisor, updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { happyPath } from '../../domain/migrations/states.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import {
  migrationPair,
  requestedMigration,
  seedMigrationRecord,
  transferHanging,
} from '../support/migrations.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

const UI = 'http://127.0.0.1:8233';

let env: Stack;
let adminKey: string;
let locationId: string;

beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: { MIGRATION_SOURCE_RETENTION_MS: '300', TEMPORAL_UI_URL: UI },
  });
  adminKey = env.admin.key;
  locationId = env.locationId;
});
afterAll(() => env.close());

const call = (method: string, path: string, body?: unknown, key: string | null = adminKey) =>
  env.call(key, method, `/admin/cloudsvc${path}`, body);

const codeOf = (answer: { body: Body }) => answer.body.errors?.[0]?.code;

const pair = () => migrationPair(env, locationId);

async function showUntil(migrationId: string, states: string[]) {
  return eventually(
    async () => {
      const { body } = await call('GET', `/migrations/${migrationId}`);
      return states.includes(body.attributes.state) ? body : undefined;
    },
    30_000,
    `migration ${migrationId} in ${states.join(' or ')}`,
  );
}

const requested = (instanceId: string, targetId: string) =>
  requestedMigration(env, instanceId, targetId, { mode: 'AUTO', reason: 'rebalancing' });

describe('POST /instances/{instance}/migrations/preflight', () => {
  it('reports the target, the strategy of each mode, candidates and warnings, and changes nothing', async () => {
    const { source, target, instance } = await pair();
    const answer = await call('POST', `/instances/${instance.id}/migrations/preflight`, {
      target_hypervisor_uuid: target.id,
      mode: 'LIVE_IF_POSSIBLE',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe('migration_preflight');
    const report = answer.body.attributes;
    expect(report).toMatchObject({
      instance_uuid: instance.id,
      mode: 'LIVE_IF_POSSIBLE',
      ok: true,
      source: { uuid: source.id, name: source.name },
      target: { uuid: target.id, name: target.name },
      strategy: 'live',
      blockers: [],
      strategies: { LIVE_REQUIRED: 'live', LIVE_IF_POSSIBLE: 'live', AUTO: 'live', COLD: 'cold' },
    });
    expect(report.warnings.map((w: Body) => w.code)).toContain('SAME_IP_INTERRUPTION');
    expect(report.candidates.map((c: Body) => c.uuid)).toContain(target.id);

    // Without a target the best candidate is judged; nothing was reserved by either preflight.
    const best = await call('POST', `/instances/${instance.id}/migrations/preflight`, { mode: 'COLD' });
    expect(best.body.attributes).toMatchObject({ ok: true, strategy: 'cold' });
    const migrations = await call('GET', `/migrations?instance=${instance.id}`);
    expect(migrations.body.meta.pagination.total).toBe(0);
  });

  it('names every blocker: LIVE_REQUIRED against a target without live migration, in maintenance', async () => {
    const { target, instance } = await pair();
    await updateHypervisor(env.db, target.id, {
      withheldCapabilities: ['live_migration'],
      maintenance: true,
    });
    const answer = await call('POST', `/instances/${instance.id}/migrations/preflight`, {
      target_hypervisor_uuid: target.id,
      mode: 'LIVE_REQUIRED',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.attributes.ok).toBe(false);
    expect(answer.body.attributes.blockers.map((b: Body) => b.code)).toEqual(
      expect.arrayContaining(['LIVE_NOT_SUPPORTED', 'TARGET_IN_MAINTENANCE']),
    );
    const unknown = await call('POST', `/instances/${instance.id}/migrations/preflight`, {
      target_hypervisor_uuid: randomUUID(),
      mode: 'AUTO',
    });
    expect(unknown.body.attributes.blockers.map((b: Body) => b.code)).toContain('NO_TARGET');
  });

  it('takes a target for live migration only if its agent says it can: configured is not enough', async () => {
    const { hypervisor: source } = await env.hypervisorWithAgent({}, { locationId });
    // Configured with live migration by the administrator, but its agent's host cannot do it.
    const { hypervisor: target } = await env.hypervisorWithAgent({ AGENT_CAPABILITIES: '' }, { locationId });
    // Online at enrollment; what it can do comes with its first heartbeat.
    const reported = await eventually(
      async () => {
        const row = await findHypervisor(env.db, target.id);
        return row?.reported_capabilities ? row : undefined;
      },
      30_000,
      'its first heartbeat',
    );
    expect(reported).toMatchObject({
      capabilities: expect.arrayContaining(['live_migration']),
      reported_capabilities: [],
    });
    const instance = await env.provisionedInstance(source);
    for (let i = 0; i < 2; i++) {
      const live = await call('POST', `/instances/${instance.id}/migrations/preflight`, {
        target_hypervisor_uuid: target.id,
        mode: 'LIVE_REQUIRED',
      });
      expect(live.body.attributes.blockers.map((b: Body) => b.code)).toContain('LIVE_NOT_SUPPORTED');
      const auto = await call('POST', `/instances/${instance.id}/migrations/preflight`, {
        target_hypervisor_uuid: target.id,
        mode: 'AUTO',
      });
      expect(auto.body.attributes).toMatchObject({ ok: true, strategy: 'cold' });
    }
  });

  it('refuses bad input with 400 naming the field, and an unknown instance with 404', async () => {
    const instanceId = randomUUID();
    for (const [body, field] of [
      [{}, 'mode'],
      [{ mode: 'FAST' }, 'mode'],
      [{ mode: 'AUTO', target_hypervisor_uuid: 'hv-1' }, 'target_hypervisor_uuid'],
    ] as const) {
      const answer = await call('POST', `/instances/${instanceId}/migrations/preflight`, body);
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].source.field).toBe(field);
    }
    const unknown = await call('POST', `/instances/${instanceId}/migrations/preflight`, { mode: 'AUTO' });
    expect([unknown.status, codeOf(unknown)]).toEqual([404, 'SVC-RES-404']);
  });
});

describe('a migration through the admin API', () => {
  it('is requested (202), shown with both sides, its lease and its run, and ends CLEANED_UP', async () => {
    const { source, target, instance } = await pair();
    const migration = await requested(instance.id, target.id);
    expect(migration).toMatchObject({
      instance_uuid: instance.id,
      source: { uuid: source.id, name: source.name, location_uuid: locationId },
      target: { uuid: target.id, name: target.name, location_uuid: locationId },
      mode: 'AUTO',
      strategy: 'live',
      point_of_no_return: 'LIVE_MIGRATING',
      reason: 'rebalancing',
      lease: { holder: expect.stringContaining(migration.uuid) },
      temporal_ui_url: `${UI}/namespaces/default/workflows/${encodeURIComponent(migration.workflow_id)}`,
      finished_at: null,
    });
    expect(migration.requested_by).toMatch(/^admin:/);
    expect(migration.history[0]).toMatchObject({ state: 'REQUESTED' });

    const done = (await showUntil(migration.uuid, ['CLEANED_UP'])).attributes;
    expect(done.history.map((h: Body) => h.state)).toEqual(happyPath('live'));
    expect(done.history.every((h: Body) => h.at.endsWith('Z'))).toBe(true);
    expect(done).toMatchObject({ point_of_no_return_passed: true, lease: null, failed_step: null });
    expect(done.retain_source_until).toMatch(/Z$/);
    expect(done.finished_at).toMatch(/Z$/);

    // SPEC.md §6 rule 2: no transfer token, sealed value or agent task id in what an admin sees.
    const text = JSON.stringify(done);
    expect(text).not.toContain('cst_');
    expect(text).not.toContain('sealed:');
    const tasks = await listTasksOfWorkflow(env.db, migration.workflow_id);
    expect(tasks.length).toBeGreaterThan(5);
    for (const task of tasks) expect(text).not.toContain(task.id);
  });

  it('refuses a second migration of the instance with 409 INSTANCE_MIGRATING; cancel rolls the first back', async () => {
    const { target, targetAgent, sourceAgent, instance } = await pair();
    targetAgent.armFault('disk.transfer', { mode: 'hang' });
    const first = await requested(instance.id, target.id);
    await transferHanging(env, first.workflow_id);

    const second = await call('POST', `/instances/${instance.id}/migrations`, { mode: 'AUTO' });
    expect([second.status, codeOf(second)]).toEqual([409, 'INSTANCE_MIGRATING']);

    const noReason = await call('POST', `/migrations/${first.uuid}/cancel`, { reason: '  ' });
    expect([noReason.status, noReason.body.errors[0].source.field]).toEqual([400, 'reason']);
    const cancel = await call('POST', `/migrations/${first.uuid}/cancel`, { reason: 'wrong target' });
    expect(cancel.status).toBe(202);
    expect(cancel.body.attributes.uuid).toBe(first.uuid);

    const ended = (await showUntil(first.uuid, ['ROLLED_BACK'])).attributes;
    expect(ended.failed_step).toBe('TRANSFERRING');
    expect(ended.failure).toMatchObject({ code: 'CANCELLED', message: 'wrong target' });
    expect(ended.point_of_no_return_passed).toBe(false);
    expect(ended.lease).toBeNull();
    expect(ended.history.map((h: Body) => h.state).slice(-2)).toEqual(['ROLLING_BACK', 'ROLLED_BACK']);
    expect(sourceAgent.hypervisor().instances[instance.id]?.power_state).toBe('running');

    const again = await call('POST', `/migrations/${first.uuid}/rollback`, { reason: 'twice' });
    expect([again.status, codeOf(again)]).toEqual([409, 'MIGRATION_FINISHED']);
  });

  it('rolls back before the point of no return on request', async () => {
    const { target, targetAgent, instance } = await pair();
    targetAgent.armFault('disk.transfer', { mode: 'hang' });
    const migration = await requested(instance.id, target.id);
    await transferHanging(env, migration.workflow_id);
    const rollback = await call('POST', `/migrations/${migration.uuid}/rollback`, {
      reason: 'maintenance over',
    });
    expect(rollback.status).toBe(202);
    const ended = (await showUntil(migration.uuid, ['ROLLED_BACK'])).attributes;
    expect(ended.failure).toMatchObject({ code: 'ROLLED_BACK_BY_OPERATOR', message: 'maintenance over' });
  });

  it('past the point of no return: cancel and rollback refused, recovery recorded and acted on', async () => {
    const { target, targetAgent, instance } = await pair();
    targetAgent.armFault('migration.start_target', { mode: 'fail-permanently' });
    const migration = await requested(instance.id, target.id);
    const stuck = (await showUntil(migration.uuid, ['RECOVERY_REQUIRED'])).attributes;
    expect(stuck).toMatchObject({ failed_step: 'STARTING_TARGET', point_of_no_return_passed: true });
    expect(stuck.lease).not.toBeNull();
    expect(stuck.failure.code).toBe('SIMULATED_FAILURE');

    for (const action of ['cancel', 'rollback']) {
      const refused = await call('POST', `/migrations/${migration.uuid}/${action}`, { reason: 'undo' });
      expect([refused.status, codeOf(refused)]).toEqual([409, 'MIGRATION_PAST_POINT_OF_NO_RETURN']);
    }
    const bad = await call('POST', `/migrations/${migration.uuid}/recover`, {
      decision: 'restart',
      reason: 'x',
    });
    expect([bad.status, bad.body.errors[0].source.field]).toEqual([400, 'decision']);
    const noReason = await call('POST', `/migrations/${migration.uuid}/recover`, { decision: 'retry' });
    expect([noReason.status, noReason.body.errors[0].source.field]).toEqual([400, 'reason']);

    const retry = await call('POST', `/migrations/${migration.uuid}/recover`, {
      decision: 'retry',
      reason: 'the target host was rebooted',
    });
    expect(retry.status).toBe(202);
    const done = (await showUntil(migration.uuid, ['CLEANED_UP'])).attributes;
    expect(done.recovery).toMatchObject({
      decision: 'retry',
      reason: 'the target host was rebooted',
      failed_step: 'STARTING_TARGET',
    });
    expect(done.recovery.by).toMatch(/^admin:/);

    const notWaiting = await call('POST', `/migrations/${migration.uuid}/recover`, {
      decision: 'retry',
      reason: 'again',
    });
    expect([notWaiting.status, codeOf(notWaiting)]).toEqual([409, 'MIGRATION_NOT_RECOVERABLE']);
  });

  it('answers unknown migrations with 404, and refuses a client key (403) and no key (401)', async () => {
    for (const [method, path, body] of [
      ['GET', `/migrations/${randomUUID()}`, undefined],
      ['POST', `/migrations/${randomUUID()}/cancel`, { reason: 'x' }],
      ['POST', `/migrations/${randomUUID()}/recover`, { decision: 'retry', reason: 'x' }],
    ] as const) {
      const answer = await call(method, path, body);
      expect([answer.status, codeOf(answer)]).toEqual([404, 'SVC-RES-404']);
    }
    const client = await call('GET', '/migrations', undefined, env.client.key);
    expect([client.status, codeOf(client)]).toEqual([403, 'SVC-AUTH-403']);
    const none = await call('GET', '/migrations', undefined, null);
    expect([none.status, codeOf(none)]).toEqual([401, 'SVC-AUTH-401']);
  });
});

describe('GET /migrations', () => {
  it('filters by state, instance and hypervisor, newest first, paginated', async () => {
    const { target, targetAgent, instance } = await pair();
    targetAgent.armFault('disk.transfer', { mode: 'hang' });
    const cancelled = await requested(instance.id, target.id);
    await transferHanging(env, cancelled.workflow_id);
    await call('POST', `/migrations/${cancelled.uuid}/cancel`, { reason: 'filters' });
    await showUntil(cancelled.uuid, ['ROLLED_BACK']);
    const completed = await requested(instance.id, target.id);
    await showUntil(completed.uuid, ['CLEANED_UP']);

    const ofInstance = await call('GET', `/migrations?instance=${instance.id}`);
    expect(ofInstance.status).toBe(200);
    expect(ofInstance.body.data.map((m: Body) => m.attributes.uuid)).toEqual([
      completed.uuid,
      cancelled.uuid,
    ]);
    expect(ofInstance.body.data[0].object).toBe('migration');
    expect(ofInstance.body.meta.pagination).toMatchObject({ total: 2, count: 2 });

    const rolledBack = await call('GET', `/migrations?state=ROLLED_BACK&hypervisor=${target.id}`);
    expect(rolledBack.body.data.map((m: Body) => m.attributes.uuid)).toEqual([cancelled.uuid]);
    const page = await call('GET', `/migrations?instance=${instance.id}&per_page=1&page=2`);
    expect(page.body.data.map((m: Body) => m.attributes.uuid)).toEqual([cancelled.uuid]);
    expect(page.body.meta.pagination).toMatchObject({ total: 2, count: 1, current_page: 2, total_pages: 2 });
    const firstOfTwo = await call('GET', `/migrations?instance=${instance.id}&per_page=1`);
    const after = await call(
      'GET',
      `/migrations?instance=${instance.id}&per_page=1&cursor=${firstOfTwo.body.meta.cursor.next}`,
    );
    expect(after.body.data.map((m: Body) => m.attributes.uuid)).toEqual([cancelled.uuid]);
    expect(after.body.meta).toEqual({ cursor: { next: null } });
    const none = await call('GET', `/migrations?hypervisor=${randomUUID()}`);
    expect(none.body.data).toEqual([]);

    for (const query of ['state=DONE', 'instance=web-1', 'hypervisor=1', 'per_page=0', 'since=yesterday']) {
      const bad = await call('GET', `/migrations?${query}`);
      expect([bad.status, codeOf(bad)], query).toEqual([400, 'SVC-REQ-400']);
    }
  });

  it('filters by the time requested: since is inclusive, until is not', async () => {
    const location = await seed.location(env.db);
    const [from, to] = [
      await seed.hypervisor(env.db, location.id),
      await seed.hypervisor(env.db, location.id),
    ];
    const instance = await seed.instance(env.db, {
      userId: env.client.id,
      locationId: location.id,
      hypervisorId: from.id,
    });
    const at = (iso: string) => new Date(iso);
    const base = {
      instanceId: instance.id,
      sourceId: from.id,
      targetId: to.id,
      state: 'CLEANED_UP' as const,
    };
    const early = await seedMigrationRecord(env.db, { ...base, createdAt: at('2026-11-28T22:00:00Z') });
    const late = await seedMigrationRecord(env.db, { ...base, createdAt: at('2026-11-29T02:00:00Z') });
    const uuids = async (query: string) =>
      (await call('GET', `/migrations?hypervisor=${from.id}&${query}`)).body.data.map(
        (m: Body) => m.attributes.uuid,
      );
    expect(await uuids('since=2026-11-28T22:00:00Z')).toEqual([late, early]);
    expect(await uuids('since=2026-11-28T22:00:01Z')).toEqual([late]);
    expect(await uuids('until=2026-11-29T02:00:00Z')).toEqual([early]);
    expect(await uuids('since=2026-11-29T00:00:00%2B01:00&until=2026-11-29T03:00:00Z')).toEqual([late]);
  });
});
