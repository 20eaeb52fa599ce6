import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import type { MigrationMode } from '../../domain/migrations/states.js';
import { getMigration } from '../../services/migrations/reads.js';
import { requestMigration } from '../../services/migrations/request.js';
import { serializeMigration } from '../../wire/serializers/moves/migration.js';
import { migrationEnd } from '../support/migrations.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A migration records the interruption its guest had (SPEC.md §3: a same-IP cross-node move is not
 * atomic; the interruption is recorded): a cold move's stop on the source to start on the target,
 * measured by its run; a live move's downtime as the hypervisor reported it; none for a guest that
 * was stopped.
 */
const START_MS = 1200;
let env: Stack;
let admin: { type: 'admin'; userId: string };
beforeAll(async () => {
  env = await startStack({ agents: true, config: { MIGRATION_SOURCE_RETENTION_MS: '300' } });
  admin = { type: 'admin', userId: (await seed.user(env.db, { admin: true })).id };
});
afterAll(() => env.close());

/** A source and a target whose guest takes START_MS to start; an instance on the source. */
async function pair(stopped = false) {
  const location = await seed.location(env.db);
  const source = await env.hypervisorWithAgent({}, { locationId: location.id });
  const target = await env.hypervisorWithAgent(
    { AGENT_SIM_LATENCY_MS: JSON.stringify({ 'migration.start_target': START_MS, default: 0 }) },
    { locationId: location.id },
  );
  const instance = await env.provisionedInstance(source.hypervisor);
  if (stopped) {
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
  }
  return { target, instance };
}

async function moved(mode: MigrationMode, stopped = false) {
  const { target, instance } = await pair(stopped);
  const { migrationId, workflowId } = await requestMigration(env.deps, admin, {
    instanceId: instance.id,
    targetId: target.hypervisor.id,
    mode,
    correlationId: null,
  });
  expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
  const record = (await findMigration(env.db, migrationId))!;
  const shown = serializeMigration(await getMigration(env.deps, migrationId), env.config).attributes;
  return { record, shown };
}

describe('the interruption of a migration', () => {
  it('of a cold move of a running guest: from its stop on the source to its start on the target', async () => {
    const { record, shown } = await moved('COLD');
    expect(record.strategy).toBe('cold');
    expect(shown.interruption_ms).toBeGreaterThanOrEqual(START_MS);
    expect(shown.interruption_ms).toBeLessThan(START_MS + 15_000);
    expect(record.history.find((h) => h.state === 'STARTING_TARGET')?.detail).toMatchObject({
      interruption_ms: shown.interruption_ms,
    });
    expect(shown.network_plan.interruption_expected).toBe(true);
  });

  it('of a live move: the downtime the hypervisor reported', async () => {
    const { record, shown } = await moved('AUTO');
    expect(record.strategy).toBe('live');
    const live = record.history.find((h) => h.state === 'LIVE_MIGRATING')?.detail as { downtime_ms: number };
    expect(shown.interruption_ms).toBe(live.downtime_ms);
  });

  it('of a stopped guest: none, as nothing was running to interrupt', async () => {
    const { shown } = await moved('COLD', true);
    expect(shown.interruption_ms).toBeNull();
  });
});
