import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convergencePolicy, liveMovedMb, liveStepLimitS } from '../../domain/migrations/convergence.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { leaseOf, migrationPair, transferHanging } from '../support/migrations.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A migration's convergence policy through the admin API: bad figures refused with 400 naming the
 * field and nothing recorded, the defaults (configured here, to tell them from the code's) filled
 * in and shown, and requests twice and at once as every migration request behaves.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: {
      MIGRATION_SOURCE_RETENTION_MS: '300',
      MIGRATION_MAX_DOWNTIME_MS: '250',
      MIGRATION_BANDWIDTH_MBPS: '800',
      MIGRATION_PROGRESS_TIMEOUT_S: '90',
    },
  });
});
afterAll(() => env.close());

const call = (method: string, path: string, body?: unknown) =>
  env.call(env.admin, method, `/admin/cloudsvc${path}`, body);
const request = (instanceId: string, body: Record<string, unknown>) =>
  call('POST', `/instances/${instanceId}/migrations`, body);

const DEFAULTS = {
  max_downtime_ms: 250,
  bandwidth_mbps: 800,
  auto_converge: { enabled: false, initial_throttle_pct: 20, step_throttle_pct: 10 },
  post_copy: 'never',
  completion_timeout_s_per_gib: 800,
  progress_timeout_s: 90,
};

describe('a migration request’s convergence policy', () => {
  it('refuses each figure out of its bounds with 400 naming it, and records nothing', async () => {
    const { target, instance } = await migrationPair(env);
    const bad: [Record<string, unknown>, string][] = [
      [{ max_downtime_ms: 4 }, 'convergence.max_downtime_ms'],
      [{ max_downtime_ms: 9001 }, 'convergence.max_downtime_ms'],
      [{ max_downtime_ms: 12.5 }, 'convergence.max_downtime_ms'],
      [{ bandwidth_mbps: 0 }, 'convergence.bandwidth_mbps'],
      [{ bandwidth_mbps: '100' }, 'convergence.bandwidth_mbps'],
      [{ auto_converge: { enabled: 'yes' } }, 'convergence.auto_converge.enabled'],
      [{ auto_converge: { initial_throttle_pct: 71 } }, 'convergence.auto_converge.initial_throttle_pct'],
      [{ auto_converge: { initial_throttle_pct: 0 } }, 'convergence.auto_converge.initial_throttle_pct'],
      [{ auto_converge: { step_throttle_pct: 16 } }, 'convergence.auto_converge.step_throttle_pct'],
      [{ post_copy: 'always' }, 'convergence.post_copy'],
      [{ completion_timeout_s_per_gib: 0 }, 'convergence.completion_timeout_s_per_gib'],
      [{ progress_timeout_s: 59 }, 'convergence.progress_timeout_s'],
      [{ progress_timeout_s: 86_401 }, 'convergence.progress_timeout_s'],
      [{ abort_after_s: 600 }, 'convergence.abort_after_s'],
    ];
    for (const [convergence, field] of bad) {
      for (const path of ['', '/preflight']) {
        const answer = await call('POST', `/instances/${instance.id}/migrations${path}`, {
          target_hypervisor_uuid: target.id,
          mode: 'AUTO',
          convergence,
        });
        expect([answer.status, answer.body.errors?.[0]?.code], JSON.stringify(convergence)).toEqual([
          400,
          'SVC-REQ-400',
        ]);
        expect(answer.body.errors[0].source.field, JSON.stringify(convergence)).toBe(field);
      }
    }
    const recorded = await env.db
      .selectFrom('migrations')
      .select('id')
      .where('instance_id', '=', instance.id)
      .execute();
    expect(recorded).toEqual([]);
    expect(await leaseOf(env.db, instance.id)).toBeUndefined();
    const row = await env.db
      .selectFrom('instances')
      .select(['status', 'operation_id'])
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'running', operation_id: null });
  });

  it('records the configured defaults when none is given, and shows them', async () => {
    const { target, instance } = await migrationPair(env);
    const answer = await request(instance.id, { target_hypervisor_uuid: target.id, mode: 'AUTO' });
    expect(answer.status).toBe(202);
    expect(answer.body.attributes.convergence).toEqual(DEFAULTS);
    const shown = await call('GET', `/migrations/${answer.body.attributes.uuid}`);
    expect(shown.body.attributes.convergence).toEqual(DEFAULTS);
  });

  it('takes the request’s figures over the defaults, a cap removed by null; twice and at once as any request', async () => {
    const { target, targetAgent, instance } = await migrationPair(env);
    targetAgent.armFault('disk.transfer', { mode: 'hang' });
    const convergence = {
      max_downtime_ms: 40,
      bandwidth_mbps: null,
      auto_converge: { enabled: true, step_throttle_pct: 15 },
      post_copy: 'after_timeout',
    };
    const body = { target_hypervisor_uuid: target.id, mode: 'AUTO', convergence };
    const [first, second] = await Promise.all([request(instance.id, body), request(instance.id, body)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([202, 409]);
    const accepted = (first.status === 202 ? first : second).body.attributes as Body;
    const refused = first.status === 202 ? second : first;
    expect(refused.body.errors[0].code).toMatch(/^(INSTANCE_MIGRATING|SVC-OP-409)$/);
    const inForce = {
      ...DEFAULTS,
      max_downtime_ms: 40,
      bandwidth_mbps: null,
      auto_converge: { enabled: true, initial_throttle_pct: 20, step_throttle_pct: 15 },
      post_copy: 'after_timeout',
    };
    expect(accepted.convergence).toEqual(inForce);
    await transferHanging(env, accepted.workflow_id);

    // Asked again while it runs: refused, and the first keeps the policy it was recorded with.
    const again = await request(instance.id, { ...body, convergence: { max_downtime_ms: 9000 } });
    expect([again.status, again.body.errors[0].code]).toEqual([409, 'INSTANCE_MIGRATING']);
    const migrations = await env.db
      .selectFrom('migrations')
      .select(['id', 'convergence'])
      .where('instance_id', '=', instance.id)
      .execute();
    expect(migrations).toEqual([{ id: accepted.uuid, convergence: inForce }]);
    const cancel = await call('POST', `/migrations/${accepted.uuid}/cancel`, { reason: 'done testing' });
    expect(cancel.status).toBe(202);
  });

  it('reaches the live move’s tasks: the source sets it and answers what it ran with, the target readies post-copy', async () => {
    const { target, targetAgent, instance } = await migrationPair(env);
    const convergence = {
      max_downtime_ms: 8,
      bandwidth_mbps: 40,
      auto_converge: { enabled: true, initial_throttle_pct: 35, step_throttle_pct: 5 },
      post_copy: 'allow',
      progress_timeout_s: 120,
    };
    const answer = await request(instance.id, {
      target_hypervisor_uuid: target.id,
      mode: 'LIVE_REQUIRED',
      convergence,
    });
    expect(answer.status).toBe(202);
    const migration = answer.body.attributes as Body;
    const inForce = { ...DEFAULTS, ...convergence };
    expect(migration.convergence).toEqual(inForce);
    const done = await eventually(
      async () => {
        const shown = await call('GET', `/migrations/${migration.uuid}`);
        return ['COMPLETED', 'CLEANED_UP'].includes(shown.body.attributes.state)
          ? shown.body.attributes
          : undefined;
      },
      30_000,
      'the migration to complete',
    );
    expect(done.interruption_ms).toBe(8);
    const tasks = await env.db
      .selectFrom('agent_tasks')
      .select(['type', 'params', 'result'])
      .where('workflow_id', '=', migration.workflow_id)
      .where('type', 'in', ['migration.live', 'migration.define_target'])
      .where('status', '=', 'completed')
      .execute();
    const live = tasks.find((t) => t.type === 'migration.live');
    expect(live?.params.convergence).toEqual(inForce);
    expect(live?.result).toEqual({
      downtime_ms: 8,
      applied: {
        max_downtime_ms: 8,
        max_bandwidth_bytes_per_s: 5_000_000,
        auto_converge: true,
        initial_throttle_pct: 35,
        step_throttle_pct: 5,
        post_copy: true,
      },
    });
    expect(tasks.find((t) => t.type === 'migration.define_target')?.params).toMatchObject({
      final_sync: false,
      post_copy: true,
    });
    expect(targetAgent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    // 800 s per GiB of 2 GiB of memory and a 40 GiB disk: the step may run its 9.3 hours and an hour.
    const limitS = liveStepLimitS(
      convergencePolicy.parse(migration.convergence),
      await movedMbOf(instance.id),
    );
    expect(limitS).toBeGreaterThan(3 * 3600);
    expect(await liveStepTimeoutS(migration.workflow_id)).toBe(limitS);
  });

  it('gives the live step a long step’s 3 hours where the move’s own timeout is shorter', async () => {
    const { target, instance } = await migrationPair(env);
    const answer = await request(instance.id, {
      target_hypervisor_uuid: target.id,
      mode: 'LIVE_REQUIRED',
      convergence: { completion_timeout_s_per_gib: 60 },
    });
    expect(answer.status).toBe(202);
    const { workflow_id } = answer.body.attributes as Body;
    await env.temporal.workflow.getHandle(workflow_id).result();
    expect(await liveStepTimeoutS(workflow_id)).toBe(3 * 3600);
  });
});

/** What the panel counts a live move of the instance to carry, in MiB. */
async function movedMbOf(instanceId: string): Promise<number> {
  const row = await env.db
    .selectFrom('instances')
    .select(['memory_mb', 'disk_mb'])
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();
  return liveMovedMb(row);
}

/** The start-to-close timeout, in seconds, the run gave its `migration.live` step. */
async function liveStepTimeoutS(workflowId: string): Promise<number> {
  const history = await env.temporal.workflow.getHandle(workflowId).fetchHistory();
  const scheduled = (history.events ?? [])
    .map((e) => e.activityTaskScheduledEventAttributes)
    .find((a) =>
      (a?.input?.payloads ?? []).some((p) =>
        Buffer.from(p.data ?? [])
          .toString('utf8')
          .includes('"migration.live"'),
      ),
    );
  return Number(scheduled?.startToCloseTimeout?.seconds);
}

describe('an evacuation’s convergence policy', () => {
  it('refuses a figure out of bounds with 400 naming it, starting nothing; else every move of the drain takes it', async () => {
    const { source, instance } = await migrationPair(env);
    const second = await env.provisionedInstance(source);
    const path = `/hypervisors/${source.id}/evacuations`;
    const bad = await call('POST', path, { mode: 'AUTO', convergence: { post_copy: 'sometimes' } });
    expect([bad.status, bad.body.errors[0].source.field]).toEqual([400, 'convergence.post_copy']);
    expect(
      await env.db.selectFrom('evacuations').select('id').where('hypervisor_id', '=', source.id).execute(),
    ).toEqual([]);
    const node = await env.db
      .selectFrom('hypervisors')
      .select('maintenance')
      .where('id', '=', source.id)
      .executeTakeFirstOrThrow();
    expect(node.maintenance).toBe(false);

    const answer = await call('POST', path, {
      mode: 'AUTO',
      convergence: { max_downtime_ms: 30, auto_converge: { enabled: true, initial_throttle_pct: 50 } },
    });
    expect(answer.status).toBe(202);
    const inForce = {
      ...DEFAULTS,
      max_downtime_ms: 30,
      auto_converge: { enabled: true, initial_throttle_pct: 50, step_throttle_pct: 10 },
    };
    expect(answer.body.attributes.policy.convergence).toEqual(inForce);
    await eventually(
      async () => {
        const shown = await call('GET', `/evacuations/${answer.body.attributes.uuid}`);
        return shown.body.attributes.state === 'completed' ? shown : undefined;
      },
      60_000,
      'the evacuation to complete',
    );
    // Each to whichever hypervisor of the location the plan chose: the policy is the drain's.
    const moves = await env.db
      .selectFrom('migrations')
      .select(['source_hypervisor_id', 'convergence'])
      .where('instance_id', 'in', [instance.id, second.id])
      .execute();
    expect(moves).toEqual([
      { source_hypervisor_id: source.id, convergence: inForce },
      { source_hypervisor_id: source.id, convergence: inForce },
    ]);
  });
});
