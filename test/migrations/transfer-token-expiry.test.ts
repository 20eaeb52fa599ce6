import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import { requestMigration } from '../../services/migrations/request.js';
import { leaseOf, migrationEnd } from '../support/migrations.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A transfer token expires (SPEC.md §6 rule 2, TRANSFER_TOKEN_TTL_MS): a target that asks for the
 * disk after its token's time learns nothing, and the migration rolls back with the source untouched.
 */
// Long enough that a busy machine redeems the second test's token in time (at 1.5 s one did not).
const TTL_MS = 6000;
let env: Stack;
let admin: { type: 'admin'; userId: string };
beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: { TRANSFER_TOKEN_TTL_MS: String(TTL_MS), MIGRATION_SOURCE_RETENTION_MS: '300' },
  });
  admin = { type: 'admin', userId: (await seed.user(env.db, { admin: true })).id };
});
afterAll(() => env.close());

/** A source and a target whose disk transfer starts `transferDelayMs` after it is asked for. */
async function pair(transferDelayMs: number) {
  const location = await seed.location(env.db);
  const source = await env.hypervisorWithAgent({}, { locationId: location.id });
  const target = await env.hypervisorWithAgent(
    { AGENT_SIM_LATENCY_MS: JSON.stringify({ 'disk.transfer': transferDelayMs, default: 0 }) },
    { locationId: location.id },
  );
  const instance = await env.provisionedInstance(source.hypervisor);
  return { source, target, instance };
}

const migrate = (instanceId: string, targetId: string) =>
  requestMigration(env.deps, admin, { instanceId, targetId, mode: 'COLD', correlationId: null });

const tokensOf = (migrationId: string) =>
  env.db
    .selectFrom('transfer_tokens')
    .select(['created_at', 'expires_at', 'redeemed_at', 'voided_at'])
    .where('migration_id', '=', migrationId)
    .execute();

describe('an expired transfer token', () => {
  it('is refused to the target; the migration rolls back and the guest stays on its source', async () => {
    const { source, target, instance } = await pair(TTL_MS + 1500);
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    const [issued] = await tokensOf(migrationId);
    expect(issued!.expires_at.getTime() - issued!.created_at.getTime()).toBe(TTL_MS);

    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'ROLLED_BACK' });
    expect((await findMigration(env.db, migrationId))?.failure).toEqual(
      expect.objectContaining({ code: expect.any(String) }),
    );
    // Never redeemed, and voided with the migration's end.
    expect(await tokensOf(migrationId)).toEqual([
      expect.objectContaining({ redeemed_at: null, voided_at: expect.any(Date) }),
    ]);
    expect(target.agent.hypervisor().instances[instance.id]).toBeUndefined();
    expect(source.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    const row = await env.db
      .selectFrom('instances')
      .select(['hypervisor_id', 'status'])
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ hypervisor_id: source.hypervisor.id, status: 'running' });
    expect(await leaseOf(env.db, instance.id)).toBeUndefined();
  });

  it('is no obstacle to the next migration, whose token is new and redeemed in time', async () => {
    const { target, instance } = await pair(0);
    const { migrationId, workflowId } = await migrate(instance.id, target.hypervisor.id);
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
    expect(await tokensOf(migrationId)).toEqual([expect.objectContaining({ redeemed_at: expect.any(Date) })]);
  });
});
