import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import type { MigrationMode, MigrationState } from '../../domain/migrations/states.js';
import { recoverMigrationWith } from '../../services/migrations/control.js';
import { requestMigration } from '../../services/migrations/request.js';
import { eventually } from '../support/eventually.js';
import { leaseOf, migrationEnd } from '../support/migrations.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * The migration's lease on its instance: renewed every third of MIGRATION_LEASE_TTL_MS while the
 * run holds the instance, and, when a renewal finds it gone, the run stops at its next step
 * boundary with MIGRATION_LEASE_LOST: rolled back before the point of no return, waiting in
 * RECOVERY_REQUIRED at or after it.
 */
let env: Stack;
let admin: { type: 'admin'; userId: string };
beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: { MIGRATION_SOURCE_RETENTION_MS: '300', MIGRATION_LEASE_TTL_MS: '3000' },
  });
  admin = { type: 'admin', userId: env.admin.id };
});
afterAll(() => env.close());

/** A source and a target (one of them, `slowSide`, taking four seconds for `slowTask`), and an instance running on the source. */
async function pair(slowTask: string, slowSide: 'source' | 'target' = 'target') {
  const location = await seed.location(env.db);
  const slow = { AGENT_SIM_LATENCY_MS: JSON.stringify({ default: 0, [slowTask]: 4000 }) };
  const source = await env.hypervisorWithAgent(slowSide === 'source' ? slow : {}, {
    locationId: location.id,
  });
  const target = await env.hypervisorWithAgent(slowSide === 'target' ? slow : {}, {
    locationId: location.id,
  });
  const instance = await env.provisionedInstance(source.hypervisor);
  return { source, target, instance };
}

const migrate = (instanceId: string, targetId: string, mode: MigrationMode) =>
  requestMigration(env.deps, admin, { instanceId, targetId, mode, correlationId: null });

const inState = (migrationId: string, wanted: MigrationState) =>
  eventually(
    async () => ((await findMigration(env.db, migrationId))?.state === wanted ? true : undefined),
    20_000,
    `migration ${wanted}`,
  );

/** Takes the instance's lease away, as an expiry taken by another would. */
const loseLease = (instanceId: string) =>
  env.db.deleteFrom('move_leases').where('instance_id', '=', instanceId).execute();

describe('the migration lease', () => {
  it('is renewed while the run holds the instance: its expiry moves on', async () => {
    const { target, instance } = await pair('migration.prepare_target');
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id, 'AUTO');
    await inState(migrationId, 'PREPARING_TARGET');
    const first = (await leaseOf(env.db, instance.id))!.expires_at.getTime();
    const moved = await eventually(
      async () => {
        const now = (await leaseOf(env.db, instance.id))?.expires_at.getTime();
        return now !== undefined && now > first ? now : undefined;
      },
      5_000,
      'a renewal',
    );
    expect(moved - first).toBeGreaterThanOrEqual(500);
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
  });

  it('lost before the point of no return, rolls the migration back at the next step, twice on one instance', async () => {
    const { source, target, instance } = await pair('migration.prepare_target');
    for (let round = 0; round < 2; round++) {
      const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id, 'AUTO');
      await inState(migrationId, 'PREPARING_TARGET');
      await loseLease(instance.id);
      expect(await migrationEnd(env, workflowId)).toEqual({ state: 'ROLLED_BACK' });
      const migration = (await findMigration(env.db, migrationId))!;
      expect(migration.failed_step).toBe('TRANSFERRING');
      expect(migration.failure).toMatchObject({ code: 'MIGRATION_LEASE_LOST' });
      expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
      expect(target.agent.hypervisor().instances[instance.id]).toBeUndefined();
    }
  });

  it('lost at the point of no return, waits in RECOVERY_REQUIRED, and the operator’s decision then goes on', async () => {
    const { source, target, instance } = await pair('migration.live', 'source');
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id, 'LIVE_REQUIRED');
    await inState(migrationId, 'LIVE_MIGRATING');
    await loseLease(instance.id);
    await inState(migrationId, 'RECOVERY_REQUIRED');
    const waiting = (await findMigration(env.db, migrationId))!;
    expect(waiting.failure).toMatchObject({ code: 'MIGRATION_LEASE_LOST' });
    expect(waiting.failed_step).toBe('STARTING_TARGET');
    // Retrying the step is not refused again for the loss the operator has seen.
    await recoverMigrationWith(env.deps, admin, { migrationId, decision: 'retry', reason: 'lease checked' });
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
    expect(target.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    expect(source.agent.hypervisor().instances[instance.id]).toBeUndefined();
  });
});
