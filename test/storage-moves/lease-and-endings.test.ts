import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { findStorageMove } from '../../db/repositories/moves/storage-move-reads.js';
import type { MoveMode } from '../../domain/moves/states.js';
import type { StorageMoveState } from '../../domain/storage-moves/states.js';
import { recoverStorageMoveWith, undoStorageMoveWith } from '../../services/storage-moves/control.js';
import { requestStorageMove } from '../../services/storage-moves/request.js';
import { eventually } from '../support/eventually.js';
import { leaseOf } from '../support/migrations.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A storage move runs on the move kit (workflows/lib/moves/) as a migration does: its lease renewed
 * every third of MIGRATION_LEASE_TTL_MS and, when found gone, reported once (rolled back before the
 * switch; past it, RECOVERY_REQUIRED, where the operator's decision then goes on), and its run's
 * end told in Temporal's own status.
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

/** A hypervisor reaching `local` and `nfs` whose `slowTask` takes four seconds, and a running instance on `local`. */
async function placed(slowTask: string) {
  const { id: locationId } = await seed.location(env.db);
  const { hypervisor, agent } = await env.hypervisorWithAgent(
    { AGENT_SIM_LATENCY_MS: JSON.stringify({ default: 0, [slowTask]: 4000 }) },
    { locationId },
  );
  await updateHypervisor(env.db, hypervisor.id, { storageBackends: ['local', 'nfs'] });
  const instance = await env.provisionedInstance(hypervisor);
  return { hypervisor, agent, instance };
}

const move = (instanceId: string, mode: MoveMode = 'AUTO') =>
  requestStorageMove(env.deps, admin, { instanceId, from: 'local', to: 'nfs', mode, correlationId: null });

const inState = (moveId: string, wanted: StorageMoveState) =>
  eventually(
    async () => ((await findStorageMove(env.db, moveId))?.state === wanted ? true : undefined),
    20_000,
    `storage move ${wanted}`,
  );

/** How the run ended in Temporal: its status, and the failure's type where it failed. */
async function runEnd(workflowId: string) {
  const handle = env.temporal.workflow.getHandle(workflowId);
  const failure = await handle.result().then(
    () => undefined,
    (error: unknown) => error,
  );
  const type = failure instanceof WorkflowFailedError ? (failure.cause as { type?: string }).type : undefined;
  return { status: (await handle.describe()).status.name, type };
}

/** Takes the instance's lease away, as an expiry taken by another would. */
const loseLease = (instanceId: string) =>
  env.db.deleteFrom('move_leases').where('instance_id', '=', instanceId).execute();

const backendOf = async (instanceId: string) =>
  (
    await env.db
      .selectFrom('instances')
      .select('storage_backend')
      .where('id', '=', instanceId)
      .executeTakeFirstOrThrow()
  ).storage_backend;

describe('a storage move’s lease', () => {
  it('is renewed while the run holds the instance: its expiry moves on', async () => {
    const { instance } = await placed('storage.copy');
    const { id, workflow_id } = await move(instance.id);
    await inState(id, 'COPYING');
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
    expect(await runEnd(workflow_id)).toEqual({ status: 'COMPLETED', type: undefined });
    expect(await leaseOf(env.db, instance.id)).toBeUndefined();
  });

  it('lost before the switch, rolls the move back at the next step: the old copy stays', async () => {
    const { agent, instance } = await placed('storage.copy');
    const { id, workflow_id } = await move(instance.id);
    await inState(id, 'COPYING');
    await loseLease(instance.id);
    expect(await runEnd(workflow_id)).toEqual({ status: 'FAILED', type: 'MIGRATION_LEASE_LOST' });
    const ended = (await findStorageMove(env.db, id))!;
    expect(ended).toMatchObject({
      state: 'ROLLED_BACK',
      failed_step: 'VERIFYING',
      failure: { code: 'MIGRATION_LEASE_LOST' },
    });
    expect(await backendOf(instance.id)).toBe('local');
    expect(agent.hypervisor().instances[instance.id]!.backends ?? {}).toEqual({});
  });

  it('lost past the switch, waits in RECOVERY_REQUIRED, and the operator’s retry then goes on to the end', async () => {
    const { agent, instance } = await placed('storage.switch');
    const { id, workflow_id } = await move(instance.id);
    await inState(id, 'SWITCHING');
    await loseLease(instance.id);
    await inState(id, 'RECOVERY_REQUIRED');
    expect(await findStorageMove(env.db, id)).toMatchObject({
      failed_step: 'COMMITTING',
      failure: { code: 'MIGRATION_LEASE_LOST' },
    });
    // The guest uses the new copy now: a retry (or the commit) must not be refused again for the
    // loss the operator has seen, or only the old copy could end the move.
    await recoverStorageMoveWith(env.deps, admin, { moveId: id, decision: 'retry', reason: 'lease checked' });
    expect(await runEnd(workflow_id)).toEqual({ status: 'COMPLETED', type: undefined });
    expect(await findStorageMove(env.db, id)).toMatchObject({
      state: 'CLEANED_UP',
      recovery: { decision: 'retry', failed_step: 'COMMITTING' },
    });
    expect(await backendOf(instance.id)).toBe('nfs');
    expect(agent.hypervisor().instances[instance.id]!.backends).toEqual({ root: 'nfs' });
  });
});

describe('a storage move’s end in Temporal', () => {
  it('is cancelled by an administrator’s cancel, and failed at once by a rollback; the old copy stays', async () => {
    for (const kind of ['cancel', 'rollback'] as const) {
      const { instance } = await placed('storage.copy');
      const { id, workflow_id } = await move(instance.id);
      await inState(id, 'COPYING');
      const asked = Date.now();
      await undoStorageMoveWith(env.deps, admin, { moveId: id, kind, reason: 'not now' });
      const ended = await runEnd(workflow_id);
      // A rollback does not wait for a Temporal cancel that never comes.
      expect(Date.now() - asked).toBeLessThan(20_000);
      expect(ended).toEqual(
        kind === 'cancel'
          ? { status: 'CANCELLED', type: undefined }
          : { status: 'FAILED', type: 'ROLLED_BACK_BY_OPERATOR' },
      );
      expect(await findStorageMove(env.db, id)).toMatchObject({
        state: 'ROLLED_BACK',
        failure: { code: kind === 'cancel' ? 'CANCELLED' : 'ROLLED_BACK_BY_OPERATOR' },
      });
      expect(await backendOf(instance.id)).toBe('local');
      expect(await leaseOf(env.db, instance.id)).toBeUndefined();
    }
  });
});
