import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import {
  happyPath,
  isPastPointOfNoReturn,
  type MigrationMode,
  type MigrationState,
} from '../../domain/migrations/states.js';
import { createLogger } from '../../platform/logger.js';
import { secretBox } from '../../platform/secrets.js';
import { recoverMigrationWith, rollBackMigration } from '../../services/migrations/control.js';
import { migrationPreflight } from '../../services/migrations/preflight.js';
import { requestMigration } from '../../services/migrations/request.js';
import { eventually } from '../support/eventually.js';
import { json } from '../support/http.js';
import { leaseOf, migrationEnd } from '../support/migrations.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { startTestWorker } from '../support/worker.js';

/**
 * Migrations between two hypervisors with real (in-process) agents and the simulated driver's
 * faults: the happy path in both strategies, a failure at every step, each recovery decision,
 * races, a worker lost mid-way, and the rules of the transfer token and the transport key.
 */
let env: Stack;
let admin: { type: 'admin'; userId: string };
/** Every line the API logged, at debug: searched for secrets. */
const apiLog: string[] = [];
beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: { MIGRATION_SOURCE_RETENTION_MS: '300', MIGRATION_LEASE_TTL_MS: '6000' },
    logger: createLogger('debug', { service: 'api' }, (line) => apiLog.push(line)),
  });
  admin = { type: 'admin', userId: (await seed.user(env.db, { admin: true })).id };
});
let replacementWorker: Awaited<ReturnType<typeof startTestWorker>> | undefined;
afterAll(async () => {
  await replacementWorker?.stop();
  await env.close();
});

type Agent = Awaited<ReturnType<Stack['hypervisorWithAgent']>>['agent'];

/** A source and a target in one location, and a provisioned instance on the source. */
async function pair(options: { targetEnv?: Record<string, string>; stopped?: boolean } = {}) {
  const location = await seed.location(env.db);
  const source = await env.hypervisorWithAgent({}, { locationId: location.id });
  const target = await env.hypervisorWithAgent(options.targetEnv ?? {}, { locationId: location.id });
  const instance = await env.provisionedInstance(source.hypervisor);
  if (options.stopped) {
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
  }
  return { source, target, instance };
}

const migrate = (instanceId: string, targetId: string, mode: MigrationMode = 'AUTO') =>
  requestMigration(env.deps, admin, { instanceId, targetId, mode, correlationId: null });

const instanceRow = (id: string) =>
  env.db
    .selectFrom('instances')
    .select(['hypervisor_id', 'status', 'operation_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const activeReservations = (instanceId: string, hypervisorId: string) =>
  env.db
    .selectFrom('reservations')
    .select(['purpose'])
    .where('instance_id', '=', instanceId)
    .where('hypervisor_id', '=', hypervisorId)
    .where('released_at', 'is', null)
    .execute();

const tokensOf = (migrationId: string) =>
  env.db
    .selectFrom('transfer_tokens')
    .select(['redeemed_at', 'voided_at'])
    .where('migration_id', '=', migrationId)
    .execute();

async function stateOf(migrationId: string, wanted: MigrationState) {
  return eventually(
    async () => {
      const m = await findMigration(env.db, migrationId);
      return m?.state === wanted ? m : undefined;
    },
    20_000,
    `migration ${wanted}`,
  );
}

describe('with the workflow service unreachable', () => {
  it('a migration request is refused 503, gives back what it took and is recorded ROLLED_BACK; twice, then one goes', async () => {
    const { source, target, instance } = await pair();
    const cut = { ...env.deps, config: { ...env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } };
    for (let round = 0; round < 2; round++) {
      const refused = requestMigration(cut, admin, {
        instanceId: instance.id,
        targetId: target.hypervisor.id,
        mode: 'AUTO',
        correlationId: null,
      });
      await expect(refused).rejects.toMatchObject({ code: 'SVC-SYS-503' });
      expect(await instanceRow(instance.id)).toEqual({
        hypervisor_id: source.hypervisor.id,
        status: 'running',
        operation_id: null,
      });
      expect(await leaseOf(env.db, instance.id)).toBeUndefined();
      expect(await activeReservations(instance.id, target.hypervisor.id)).toEqual([]);
      const [latest] = await env.db
        .selectFrom('migrations')
        .select(['id', 'state', 'failed_step', 'failure'])
        .where('instance_id', '=', instance.id)
        .orderBy('created_at', 'desc')
        .limit(1)
        .execute();
      expect(latest).toMatchObject({ state: 'ROLLED_BACK', failed_step: 'REQUESTED' });
      expect(latest!.failure).toMatchObject({ code: 'WORKFLOW_UNAVAILABLE' });
      expect((await tokensOf(latest!.id))[0]?.voided_at).not.toBeNull();
    }
    const { workflowId } = await migrate(instance.id, target.hypervisor.id);
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
  });
});

describe('the happy path', () => {
  it('moves a running instance live, commits, and cleans up the source after the retention window', async () => {
    const { source, target, instance } = await pair();
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
    const migration = (await findMigration(env.db, migrationId))!;
    expect(migration.strategy).toBe('live');
    expect(migration.history.map((h) => h.state)).toEqual(happyPath('live'));
    expect(migration.history.find((h) => h.state === 'LIVE_MIGRATING')?.detail).toMatchObject({
      downtime_ms: 12,
    });
    expect(await instanceRow(instance.id)).toEqual({
      hypervisor_id: target.hypervisor.id,
      status: 'running',
      operation_id: null,
    });
    expect(target.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    expect(source.agent.hypervisor().instances[instance.id]).toBeUndefined();
    expect(await leaseOf(env.db, instance.id)).toBeUndefined();
    expect(await activeReservations(instance.id, source.hypervisor.id)).toEqual([]);
    expect(await activeReservations(instance.id, target.hypervisor.id)).toEqual([{ purpose: 'instance' }]);
    expect((await tokensOf(migrationId))[0]).toMatchObject({
      redeemed_at: expect.any(Date),
      voided_at: expect.any(Date),
    });

    // And back again, right after: a second migration of the same instance.
    const back = await migrate(instance.id, source.hypervisor.id);
    expect(await migrationEnd(env, back.workflowId)).toEqual({ state: 'CLEANED_UP' });
    expect((await instanceRow(instance.id)).hypervisor_id).toBe(source.hypervisor.id);
    expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
  });

  it('moves a stopped instance cold, and it stays stopped', async () => {
    const { target, instance } = await pair({ stopped: true });
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id, 'COLD');
    await migrationEnd(env, workflowId);
    expect((await findMigration(env.db, migrationId))?.history.map((h) => h.state)).toEqual(
      happyPath('cold'),
    );
    expect(await instanceRow(instance.id)).toMatchObject({
      hypervisor_id: target.hypervisor.id,
      status: 'stopped',
    });
    expect(target.agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
  });

  it('LIVE_IF_POSSIBLE falls back to cold with its warning; LIVE_REQUIRED fails preflight', async () => {
    const { source, target, instance } = await pair({ targetEnv: { AGENT_CAPABILITIES: '' } });
    await env.db
      .updateTable('hypervisors')
      .set({ capabilities: JSON.stringify([]) })
      .where('id', '=', target.hypervisor.id)
      .execute();
    const required = await migrationPreflight(env.deps, {
      instanceId: instance.id,
      targetId: target.hypervisor.id,
      mode: 'LIVE_REQUIRED',
    });
    expect(required.ok).toBe(false);
    expect(required.blockers.map((b) => b.code)).toEqual(['LIVE_NOT_SUPPORTED']);
    await expect(migrate(instance.id, target.hypervisor.id, 'LIVE_REQUIRED')).rejects.toMatchObject({
      code: 'MIGRATION_BLOCKED',
    });

    const possible = await migrationPreflight(env.deps, {
      instanceId: instance.id,
      targetId: target.hypervisor.id,
      mode: 'LIVE_IF_POSSIBLE',
    });
    expect(possible).toMatchObject({ ok: true, strategy: 'cold' });
    expect(possible.warnings.map((w) => w.code)).toEqual([
      'LIVE_FALLBACK_TO_COLD',
      'COLD_MOVE_STOPS_INSTANCE',
      'SAME_IP_INTERRUPTION',
    ]);
    expect(possible.strategies).toEqual({
      LIVE_REQUIRED: null,
      LIVE_IF_POSSIBLE: 'cold',
      AUTO: 'cold',
      COLD: 'cold',
    });

    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id, 'LIVE_IF_POSSIBLE');
    await env.temporal.workflow.getHandle(workflowId).result();
    const migration = (await findMigration(env.db, migrationId))!;
    expect(migration.strategy).toBe('cold');
    expect(migration.warnings.map((w) => w.code)).toContain('LIVE_FALLBACK_TO_COLD');
    expect(migration.history.map((h) => h.state)).not.toContain('LIVE_MIGRATING');
    expect(target.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    void source;
  });
});

describe('a finished migration frees the instance', () => {
  it('ends at COMPLETED with the lease gone; another move starts at once; a move back is taken at once and removes the retained copy once it commits', async () => {
    const location = await seed.location(env.db);
    const [a, b, c] = [
      await env.hypervisorWithAgent({}, { locationId: location.id }),
      await env.hypervisorWithAgent({}, { locationId: location.id }),
      await env.hypervisorWithAgent({}, { locationId: location.id }),
    ];
    const instance = await env.provisionedInstance(a.hypervisor);
    // A day's retention, as in production: nothing here may wait for it.
    const longRetention = {
      ...env.deps,
      config: { ...env.config, MIGRATION_SOURCE_RETENTION_MS: 86_400_000 },
    };
    const first = await requestMigration(longRetention, admin, {
      instanceId: instance.id,
      targetId: b.hypervisor.id,
      mode: 'AUTO',
      correlationId: null,
    });
    // The migration's own run ends when it commits: Temporal shows it completed.
    expect(await env.temporal.workflow.getHandle(first.workflowId).result()).toEqual({ state: 'COMPLETED' });
    const described = await env.temporal.workflow.getHandle(first.workflowId).describe();
    expect(described.status.name).toBe('COMPLETED');
    expect((await findMigration(env.db, first.migrationId))?.state).toBe('COMPLETED');
    expect(await leaseOf(env.db, instance.id)).toBeUndefined();
    expect(a.agent.hypervisor().instances[instance.id]).toBeDefined(); // the retained copy

    // Another move, to a third host, starts at once and goes through.
    const onward = await migrate(instance.id, c.hypervisor.id);
    expect(await migrationEnd(env, onward.workflowId)).toEqual({ state: 'CLEANED_UP' });
    expect((await instanceRow(instance.id)).hypervisor_id).toBe(c.hypervisor.id);

    // Back to the host that still holds the first move's copy: accepted at once, and that copy is
    // removed once the move back commits (test/migrations/move-back.test.ts has the details).
    const back = await migrate(instance.id, a.hypervisor.id);
    expect(await migrationEnd(env, back.workflowId)).toEqual({ state: 'CLEANED_UP' });
    await stateOf(first.migrationId, 'CLEANED_UP');
    expect((await instanceRow(instance.id)).hypervisor_id).toBe(a.hypervisor.id);
    expect(a.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    expect(a.agent.hypervisor().outgoing?.[first.migrationId]).toBeUndefined();
  });
});

describe("Temporal's own status tells the outcome", () => {
  it('rolled back after a failure: failed with the failure’s code and nothing pending; cancelled: cancelled', async () => {
    const { target, instance } = await pair();
    target.agent.armFault('migration.prepare_target', { mode: 'fail-permanently', times: 1 });
    const failed = await migrate(instance.id, target.hypervisor.id);
    const error = await env.temporal.workflow
      .getHandle(failed.workflowId)
      .result()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'SIMULATED_FAILURE' });
    const described = await env.temporal.workflow.getHandle(failed.workflowId).describe();
    expect(described.status.name).toBe('FAILED');
    expect(described.raw.pendingActivities ?? []).toEqual([]);
    expect((await findMigration(env.db, failed.migrationId))?.state).toBe('ROLLED_BACK');

    const slow = await pair({
      targetEnv: { AGENT_SIM_LATENCY_MS: '{"default":0,"migration.prepare_target":3000}' },
    });
    const cancelled = await migrate(slow.instance.id, slow.target.hypervisor.id);
    await stateOf(cancelled.migrationId, 'PREPARING_TARGET');
    await rollBackMigration(env.deps, admin, {
      migrationId: cancelled.migrationId,
      kind: 'cancel',
      reason: 'not now',
    });
    await expect(env.temporal.workflow.getHandle(cancelled.workflowId).result()).rejects.toThrow();
    const ended = await env.temporal.workflow.getHandle(cancelled.workflowId).describe();
    expect(ended.status.name).toBe('CANCELLED');
    expect((await findMigration(env.db, cancelled.migrationId))?.state).toBe('ROLLED_BACK');
  });

  it('rolled back by an administrator: failed with ROLLED_BACK_BY_OPERATOR at once, without waiting for a cancel', async () => {
    const slow = await pair({
      targetEnv: { AGENT_SIM_LATENCY_MS: '{"default":0,"migration.prepare_target":3000}' },
    });
    const rolled = await migrate(slow.instance.id, slow.target.hypervisor.id);
    await stateOf(rolled.migrationId, 'PREPARING_TARGET');
    const asked = Date.now();
    await rollBackMigration(env.deps, admin, {
      migrationId: rolled.migrationId,
      kind: 'rollback',
      reason: 'wrong target',
    });
    const error = await env.temporal.workflow
      .getHandle(rolled.workflowId)
      .result()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(Date.now() - asked).toBeLessThan(20_000);
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'ROLLED_BACK_BY_OPERATOR' });
    expect((await env.temporal.workflow.getHandle(rolled.workflowId).describe()).status.name).toBe('FAILED');
    expect((await findMigration(env.db, rolled.migrationId))?.state).toBe('ROLLED_BACK');
  });

  it('finds the runs waiting for an operator by CloudsvcMigrationState', async () => {
    const { target, instance } = await pair();
    target.agent.armFault('migration.start_target', { mode: 'fail-permanently', times: 1 });
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    await stateOf(migrationId, 'RECOVERY_REQUIRED');
    const found = await eventually(
      async () => {
        const ids: string[] = [];
        for await (const run of env.temporal.workflow.list({
          query: `CloudsvcMigrationState = "RECOVERY_REQUIRED" AND CloudsvcInstance = "${instance.id}"`,
        }))
          ids.push(run.workflowId);
        return ids.length > 0 ? ids : undefined;
      },
      15_000,
      'the run in the list',
    );
    expect(found).toEqual([workflowId]);
    await recoverMigrationWith(env.deps, admin, { migrationId, decision: 'retry', reason: 'fixed' });
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
  });
});

describe('preflight', () => {
  it('reports every blocker at once, ranks candidates, and changes nothing', async () => {
    const { source, target, instance } = await pair();
    await env.db
      .updateTable('instances')
      .set({ host_requirements: JSON.stringify(['gpu_passthrough', 'hugepages']) })
      .where('id', '=', instance.id)
      .execute();
    await env.db
      .updateTable('hypervisors')
      .set({ maintenance: true })
      .where('id', '=', target.hypervisor.id)
      .execute();
    const before = await env.db.selectFrom('migrations').select('id').execute();
    const report = await migrationPreflight(env.deps, {
      instanceId: instance.id,
      targetId: target.hypervisor.id,
      mode: 'AUTO',
    });
    expect(report.blockers.map((b) => b.code)).toEqual([
      'HOST_BOUND_GPU_PASSTHROUGH',
      'HOST_BOUND_HUGEPAGES',
      'TARGET_IN_MAINTENANCE',
    ]);
    const self = await migrationPreflight(env.deps, {
      instanceId: instance.id,
      targetId: source.hypervisor.id,
      mode: 'AUTO',
    });
    expect(self.blockers.map((b) => b.code)).toContain('TARGET_IS_SOURCE');
    expect(report.rejected.find((r) => r.id === target.hypervisor.id)?.reasons.map((r) => r.code)).toEqual([
      'TARGET_IN_MAINTENANCE',
    ]);
    expect(await env.db.selectFrom('migrations').select('id').execute()).toEqual(before);
  });
});

/** Where a fault goes to fail each step, and on which side. */
const FAILURES: {
  state: MigrationState;
  task: AgentTaskType;
  side: 'source' | 'target';
  strategy: 'live' | 'cold';
}[] = [
  { state: 'PREPARING_TARGET', task: 'migration.prepare_target', side: 'target', strategy: 'live' },
  { state: 'TRANSFERRING', task: 'disk.export', side: 'source', strategy: 'live' },
  { state: 'TRANSFERRING', task: 'disk.transfer', side: 'target', strategy: 'live' },
  { state: 'VERIFYING_DISK', task: 'disk.verify', side: 'target', strategy: 'live' },
  { state: 'PREPARING_NETWORK', task: 'network.prepare', side: 'target', strategy: 'live' },
  { state: 'STOPPING_SOURCE', task: 'instance.power', side: 'source', strategy: 'cold' },
  { state: 'DEFINING_TARGET', task: 'migration.define_target', side: 'target', strategy: 'cold' },
  { state: 'LIVE_MIGRATING', task: 'migration.live', side: 'source', strategy: 'live' },
  { state: 'STARTING_TARGET', task: 'migration.start_target', side: 'target', strategy: 'cold' },
  { state: 'VERIFYING_TARGET', task: 'migration.verify_target', side: 'target', strategy: 'live' },
];

describe('a failure at every step', () => {
  for (const failure of FAILURES) {
    const past = isPastPointOfNoReturn(failure.state, failure.strategy);
    it(`${failure.state} (${failure.task}, ${failure.strategy}) ends in ${past ? 'RECOVERY_REQUIRED' : 'ROLLED_BACK'}`, async () => {
      const { source, target, instance } = await pair();
      const agent: Agent = failure.side === 'source' ? source.agent : target.agent;
      agent.armFault(failure.task, { mode: 'fail-permanently' });
      const { migrationId, workflowId } = await migrate(
        instance.id,
        target.hypervisor.id,
        failure.strategy === 'cold' ? 'COLD' : 'AUTO',
      );
      if (!past) {
        expect(await migrationEnd(env, workflowId)).toEqual({ state: 'ROLLED_BACK' });
        const migration = (await findMigration(env.db, migrationId))!;
        expect(migration.history.map((h) => h.state).slice(-2)).toEqual(['ROLLING_BACK', 'ROLLED_BACK']);
        expect(migration.failed_step).toBe(failure.state);
        // The source is authoritative and running again; the target is clean; nothing is held.
        expect(await instanceRow(instance.id)).toEqual({
          hypervisor_id: source.hypervisor.id,
          status: 'running',
          operation_id: null,
        });
        expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
        expect(target.agent.hypervisor().instances[instance.id]).toBeUndefined();
        expect(target.agent.hypervisor().incoming ?? {}).toEqual({});
        expect(await activeReservations(instance.id, target.hypervisor.id)).toEqual([]);
        expect((await tokensOf(migrationId))[0]?.voided_at).not.toBeNull();
        expect(await leaseOf(env.db, instance.id)).toBeUndefined();
      } else {
        const migration = await stateOf(migrationId, 'RECOVERY_REQUIRED');
        expect(migration.failed_step).toBe(failure.state);
        // Nothing released, the source not restarted, the instance still held.
        expect(await instanceRow(instance.id)).toMatchObject({
          hypervisor_id: source.hypervisor.id,
          status: 'migrating',
        });
        expect(await activeReservations(instance.id, target.hypervisor.id)).toEqual([
          { purpose: 'migration' },
        ]);
        expect(await leaseOf(env.db, instance.id)).toBeDefined();
        // A failed switchover left the guest on the source; later failures find it moved away.
        expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe(
          failure.state === 'LIVE_MIGRATING' ? 'running' : 'stopped',
        );
        // Cancel and rollback are refused past the point of no return.
        await expect(
          rollBackMigration(env.deps, admin, { migrationId, kind: 'cancel', reason: 'too late' }),
        ).rejects.toMatchObject({ code: 'MIGRATION_PAST_POINT_OF_NO_RETURN' });
        // The operator retries; the fault fired once, so the step now succeeds.
        await recoverMigrationWith(env.deps, admin, { migrationId, decision: 'retry', reason: '' });
        expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
        expect(await instanceRow(instance.id)).toEqual({
          hypervisor_id: target.hypervisor.id,
          status: 'running',
          operation_id: null,
        });
      }
    });
  }
});

describe('recovery decisions', () => {
  it('target_authoritative commits what is on the target', async () => {
    const { target, instance } = await pair();
    target.agent.armFault('migration.verify_target', { mode: 'fail-permanently' });
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    await stateOf(migrationId, 'RECOVERY_REQUIRED');
    await expect(
      recoverMigrationWith(env.deps, admin, {
        migrationId,
        decision: 'target_authoritative',
        reason: ' ',
      }),
    ).rejects.toMatchObject({ code: 'SVC-REQ-400' });
    await recoverMigrationWith(env.deps, admin, {
      migrationId,
      decision: 'target_authoritative',
      reason: 'guest checked by hand',
    });
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
    const migration = (await findMigration(env.db, migrationId))!;
    expect(migration.recovery).toMatchObject({
      decision: 'target_authoritative',
      reason: 'guest checked by hand',
    });
    expect((await instanceRow(instance.id)).hypervisor_id).toBe(target.hypervisor.id);
    // The panel says what the target's agent says.
    expect((await instanceRow(instance.id)).status).toBe(
      target.agent.hypervisor().instances[instance.id]?.power_state,
    );
  });

  it('source_authoritative ends rolled back without restarting the source', async () => {
    const { source, target, instance } = await pair();
    target.agent.armFault('migration.start_target', { mode: 'fail-permanently' });
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    await stateOf(migrationId, 'RECOVERY_REQUIRED');
    await recoverMigrationWith(env.deps, admin, {
      migrationId,
      decision: 'source_authoritative',
      reason: 'restarted the source by hand',
    });
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'ROLLED_BACK' });
    expect(await instanceRow(instance.id)).toMatchObject({
      hypervisor_id: source.hypervisor.id,
      operation_id: null,
    });
    // The live switchover paused the source; the panel did not start it again, and says so.
    expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
    expect((await instanceRow(instance.id)).status).toBe('stopped');
    expect(await leaseOf(env.db, instance.id)).toBeUndefined();
    await expect(
      recoverMigrationWith(env.deps, admin, { migrationId, decision: 'retry', reason: '' }),
    ).rejects.toMatchObject({ code: 'MIGRATION_NOT_RECOVERABLE' });
  });
  it('source_authoritative the target does not carry out changes nothing: the migration waits for the next decision', async () => {
    const { source, target, instance } = await pair();
    target.agent.armFault('migration.start_target', { mode: 'fail-permanently' });
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    await stateOf(migrationId, 'RECOVERY_REQUIRED');
    target.agent.armFault('migration.discard_target', { mode: 'fail-permanently' });
    await recoverMigrationWith(env.deps, admin, {
      migrationId,
      decision: 'source_authoritative',
      reason: 'the source copy is the good one',
    });
    const waiting = await eventually(
      async () => {
        const m = await findMigration(env.db, migrationId);
        const message = String((m?.failure as { message?: unknown } | null)?.message);
        return m?.state === 'RECOVERY_REQUIRED' && message.includes('migration.discard_target')
          ? m
          : undefined;
      },
      20_000,
      'the refused decision to wait again',
    );
    expect(waiting.failed_step).toBe('STARTING_TARGET');
    // Still held, still where it was: nothing was given back.
    expect(await leaseOf(env.db, instance.id)).toBeDefined();
    expect((await instanceRow(instance.id)).operation_id).not.toBeNull();
    await recoverMigrationWith(env.deps, admin, {
      migrationId,
      decision: 'source_authoritative',
      reason: 'the target answers again',
    });
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'ROLLED_BACK' });
    expect(await instanceRow(instance.id)).toMatchObject({
      hypervisor_id: source.hypervisor.id,
      operation_id: null,
    });
    expect(target.agent.hypervisor().instances[instance.id]).toBeUndefined();
    expect(await leaseOf(env.db, instance.id)).toBeUndefined();
  });
});

describe('the panel after an ending agrees with the hypervisor', () => {
  it('a cold move failed past the point of no return, recovered source_authoritative: stopped on both, and the customer’s start is accepted', async () => {
    const { source, target, instance } = await pair();
    target.agent.armFault('migration.start_target', { mode: 'fail-permanently' });
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id, 'COLD');
    await stateOf(migrationId, 'RECOVERY_REQUIRED');
    await recoverMigrationWith(env.deps, admin, {
      migrationId,
      decision: 'source_authoritative',
      reason: 'the source copy is the good one',
    });
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'ROLLED_BACK' });
    const agentSays = source.agent.hypervisor().instances[instance.id]?.power_state;
    expect(agentSays).toBe('stopped');
    expect(await instanceRow(instance.id)).toEqual({
      hypervisor_id: source.hypervisor.id,
      status: agentSays,
      operation_id: null,
    });
    expect((await findMigration(env.db, migrationId))!.history.at(-1)?.detail).toMatchObject({
      source_power_state: 'stopped',
    });
    const start = await env.power(instance.id, 'start');
    expect(start.status).toBe(202);
    expect(await env.operationResult(instance.id)).toMatchObject({ power_state: 'running' });
    expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    expect((await instanceRow(instance.id)).status).toBe('running');
  });

  it('a cancel of a cold move whose source was stopped: the undo starts it again, and the panel says running', async () => {
    const { source, target, instance } = await pair({
      targetEnv: { AGENT_SIM_LATENCY_MS: '{"default":0,"migration.define_target":3000}' },
    });
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id, 'COLD');
    await stateOf(migrationId, 'DEFINING_TARGET');
    expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
    await rollBackMigration(env.deps, admin, { migrationId, kind: 'cancel', reason: 'not now' });
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'ROLLED_BACK' });
    expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    expect(await instanceRow(instance.id)).toEqual({
      hypervisor_id: source.hypervisor.id,
      status: 'running',
      operation_id: null,
    });
  });
});

describe('cancel and races', () => {
  it('a cancel before the point of no return rolls back; the instance is free at once after', async () => {
    const { source, target, instance } = await pair();
    target.agent.armFault('disk.transfer', { mode: 'hang' });
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    await stateOf(migrationId, 'TRANSFERRING');
    // While it runs, every other operation is refused with INSTANCE_MIGRATING.
    const power = await env.power(instance.id, 'stop');
    expect(power.status).toBe(409);
    expect(power.body.errors[0].code).toBe('INSTANCE_MIGRATING');
    await rollBackMigration(env.deps, admin, {
      migrationId,
      kind: 'cancel',
      reason: 'maintenance window over',
    });
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'ROLLED_BACK' });
    expect((await findMigration(env.db, migrationId))?.failure).toMatchObject({
      code: 'CANCELLED',
      message: 'maintenance window over',
    });
    expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    expect(target.agent.hypervisor().incoming ?? {}).toEqual({});
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
  });

  it('two concurrent requests make exactly one migration', async () => {
    const { target, instance } = await pair();
    const outcomes = await Promise.allSettled([
      migrate(instance.id, target.hypervisor.id),
      migrate(instance.id, target.hypervisor.id),
    ]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ code: 'INSTANCE_MIGRATING' });
    const { workflowId } = (won[0] as PromiseFulfilledResult<{ workflowId: string }>).value;
    await env.temporal.workflow.getHandle(workflowId).result();
    expect(
      await env.db.selectFrom('migrations').select('id').where('instance_id', '=', instance.id).execute(),
    ).toHaveLength(1);
  });

  it('a migration survives its worker: another worker finishes it', async () => {
    const { target, instance } = await pair({
      targetEnv: { AGENT_SIM_LATENCY_MS: '{"disk.transfer":2500,"default":0}' },
    });
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    await stateOf(migrationId, 'TRANSFERRING');
    // The environment's worker goes away mid-transfer; another one on the same task queue takes over.
    await env.stopWorker();
    // It stays for the tests after this one, and stops with the file.
    replacementWorker = await startTestWorker(env.config);
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
    expect((await instanceRow(instance.id)).hypervisor_id).toBe(target.hypervisor.id);
  });
});

describe('the transfer token', () => {
  it('is redeemed once by the target only; a replay is refused and it appears in no response or log', async () => {
    const { source, target, instance } = await pair();
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    await env.temporal.workflow.getHandle(workflowId).result();
    const history = await env.temporal.workflow.getHandle(workflowId).fetchHistory();
    const payloads = (history.events ?? []).flatMap((e) =>
      [e.workflowExecutionStartedEventAttributes?.input, e.activityTaskScheduledEventAttributes?.input]
        .flatMap((p) => p?.payloads ?? [])
        .map((p) => Buffer.from(p.data ?? []).toString('utf8')),
    );
    const started = JSON.parse(payloads[0]!) as { transferToken: string };
    expect(started.transferToken).toMatch(/^sealed:v1:/);
    const token = secretBox(env.config.SECRETS_KEY).open(started.transferToken);
    expect(token).toMatch(/^cst_/);
    // In the history it is only ever sealed: no workflow input or step input holds it in clear.
    for (const payload of payloads) expect(payload).not.toContain(token);

    const credentialOf = (agent: Agent) =>
      (JSON.parse(readFileSync(join(agent.stateDir, 'credential.json'), 'utf8')) as { credential: string })
        .credential;
    const redeem = (agent: Agent) =>
      fetch(`${env.url}/api/cloudsvc/agent/transfers/redeem`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${credentialOf(agent)}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ token }),
      });
    for (const agent of [target.agent, source.agent]) {
      const replay = await redeem(agent);
      expect(replay.status).toBe(401);
      expect((await json(replay)).errors[0].code).toBe('SVC-TRANSFER-401');
    }
    expect(source.agent.output.join('') + target.agent.output.join('')).not.toContain(token);
    const row = await env.db
      .selectFrom('transfer_tokens')
      .selectAll()
      .where('migration_id', '=', migrationId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);
  });
});

describe('the transport key', () => {
  it('is minted per move and reaches the two agents only: sealed in the run, in no history payload (results too), report, redeem answer or log line', async () => {
    // What the panel answers the agents' redemptions, read as they arrive.
    const redemptions: string[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const res = await realFetch(input, init);
      const url = typeof input === 'object' && 'url' in input ? input.url : String(input);
      if (url.endsWith('/transfers/redeem')) redemptions.push(await res.clone().text());
      return res;
    });
    const location = await seed.location(env.db);
    const source = await env.hypervisorWithAgent({ LOG_LEVEL: 'debug' }, { locationId: location.id });
    const target = await env.hypervisorWithAgent({ LOG_LEVEL: 'debug' }, { locationId: location.id });
    const instance = await env.provisionedInstance(source.hypervisor);
    let migrationId: string;
    let workflowId: string;
    try {
      ({ migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id));
      expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
    } finally {
      spy.mockRestore();
    }
    // The disk went under the key (a target without it, or with another, is refused).
    expect(redemptions).toHaveLength(1);

    const history = await env.temporal.workflow.getHandle(workflowId).fetchHistory();
    const payloads = (history.events ?? []).flatMap((e) =>
      Object.values(e)
        .flatMap((attributes) => {
          const a = attributes as { input?: unknown; result?: unknown } | null;
          return [a?.input, a?.result] as ({ payloads?: { data?: Uint8Array | null }[] } | undefined)[];
        })
        .flatMap((p) => p?.payloads ?? [])
        .map((p) => Buffer.from(p.data ?? []).toString('utf8')),
    );
    const started = JSON.parse(payloads[0]!) as { transportSecret: string };
    expect(started.transportSecret).toMatch(/^sealed:v1:/);
    const box = secretBox(env.config.SECRETS_KEY);
    const key = box.open(started.transportSecret);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    // Results are searched as well as inputs: the offers' endpoints are among them.
    expect(payloads.some((p) => p.includes('"endpoint"'))).toBe(true);
    for (const payload of payloads) expect(payload).not.toContain(key);

    // Each side's disk tasks carry it sealed, and both were opened to the same key.
    const tasks = await env.db
      .selectFrom('agent_tasks')
      .select(['id', 'type', 'params', 'hypervisor_id'])
      .where('hypervisor_id', 'in', [source.hypervisor.id, target.hypervisor.id])
      .execute();
    const keyed = tasks.filter((t) => ['disk.export', 'disk.transfer'].includes(t.type));
    expect(keyed.map((t) => t.type).sort()).toEqual(['disk.export', 'disk.transfer']);
    for (const task of keyed) {
      const sealed = (task.params as { transport_secret: string }).transport_secret;
      expect(sealed).toMatch(/^sealed:v1:/);
      expect(box.open(sealed)).toBe(key);
    }
    for (const task of tasks) expect(JSON.stringify(task.params)).not.toContain(key);
    const reports = await env.db
      .selectFrom('agent_task_reports')
      .select('payload')
      .where(
        'task_id',
        'in',
        tasks.map((t) => t.id),
      )
      .execute();
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) expect(JSON.stringify(report.payload)).not.toContain(key);
    for (const answer of redemptions) {
      expect(answer).toContain('"endpoint"');
      expect(answer).not.toContain(key);
    }
    const logs = [...apiLog, ...source.agent.output, ...target.agent.output].join('');
    expect(logs).toContain(migrationId);
    expect(logs).not.toContain(key);
    // And the next move of the instance has a key of its own.
    const back = await migrate(instance.id, source.hypervisor.id);
    await env.temporal.workflow.getHandle(back.workflowId).result();
    const [again] = (await env.temporal.workflow.getHandle(back.workflowId).fetchHistory()).events ?? [];
    const input = again?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    const next = JSON.parse(Buffer.from(input ?? []).toString('utf8')) as { transportSecret: string };
    expect(box.open(next.transportSecret)).not.toBe(key);
  });
});
