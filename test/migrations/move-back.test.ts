import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import type { MigrationState } from '../../domain/migrations/states.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import { recoverMigrationWith } from '../../services/migrations/control.js';
import { eventually } from '../support/eventually.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A move back to the host that still holds the copy the last move retains (issue 47 item 7): it is
 * accepted at once, the arriving copy is kept beside the retained one, and the retained copy goes
 * only when the move back commits; a rollback leaves it with its window, and a refused request
 * changes nothing. The retention is a day, as in production: nothing here may wait for it.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({ agents: true, config: { MIGRATION_SOURCE_RETENTION_MS: '86400000' } });
});
afterAll(() => env.close());

type Host = Awaited<ReturnType<Stack['hypervisorWithAgent']>>;

/** An agent slow to verify an arrival: a window to look in before the commit. */
const SLOW_VERIFY = { AGENT_SIM_LATENCY_MS: '{"default":0,"migration.verify_target":1500}' };

/** Two hosts of one location, each slow to verify an arrival, and an instance on the first. */
async function pair() {
  const location = await seed.location(env.db);
  const a = await env.hypervisorWithAgent(SLOW_VERIFY, { locationId: location.id });
  const b = await env.hypervisorWithAgent(SLOW_VERIFY, { locationId: location.id });
  const instance = await env.provisionedInstance(a.hypervisor);
  return { a, b, instance };
}

const request = (instanceId: string, targetId: string) =>
  env.call(env.admin, 'POST', `/admin/cloudsvc/instances/${instanceId}/migrations`, {
    target_hypervisor_uuid: targetId,
    mode: 'AUTO',
  });

const stateOf = (migrationId: string) => findMigration(env.db, migrationId).then((m) => m?.state);

async function reaches(migrationId: string, wanted: MigrationState) {
  await eventually(async () => (await stateOf(migrationId)) === wanted, 30_000, `migration ${wanted}`);
}

const migrationsOf = (instanceId: string) =>
  env.db.selectFrom('migrations').select(['id', 'state']).where('instance_id', '=', instanceId).execute();

/** A move from `from` to `to`, committed (its own run ends at COMPLETED); its id. */
async function moved(instanceId: string, to: Host): Promise<string> {
  const answer = await request(instanceId, to.hypervisor.id);
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  const { uuid, workflow_id } = answer.body.attributes;
  expect(await env.temporal.workflow.getHandle(workflow_id).result()).toEqual({ state: 'COMPLETED' });
  return uuid;
}

/**
 * Back to `to`, which retains the copy `earlier` left: accepted with a warning; while it verifies
 * the arrival, the retained copy is set aside beside the arrived instance and its migration still
 * COMPLETED; once it commits, that copy's cleanup runs at once and takes only that copy.
 */
async function movedBack(instanceId: string, to: Host, earlier: string): Promise<string> {
  expect(to.agent.hypervisor().outgoing?.[earlier]).toEqual({ instance_id: instanceId });
  const answer = await request(instanceId, to.hypervisor.id);
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  const back = answer.body.attributes;
  expect(back.warnings.map((w: { code: string }) => w.code)).toContain('RETAINED_COPY_REPLACED');

  await reaches(back.uuid, 'VERIFYING_TARGET');
  const during = to.agent.hypervisor();
  expect(during.outgoing?.[earlier]?.set_aside?.instance.power_state).toBe('stopped');
  expect(during.instances[instanceId]?.power_state).toBe('running');
  expect(await stateOf(earlier)).toBe('COMPLETED');

  expect(await env.temporal.workflow.getHandle(back.workflow_id).result()).toEqual({ state: 'COMPLETED' });
  expect(await env.temporal.workflow.getHandle(migrationCleanupWorkflowId(earlier)).result()).toEqual({
    state: 'CLEANED_UP',
  });
  const after = to.agent.hypervisor();
  expect(after.outgoing?.[earlier]).toBeUndefined();
  expect(after.instances[instanceId]?.power_state).toBe('running');
  const row = await env.db
    .selectFrom('instances')
    .select(['hypervisor_id', 'status'])
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ hypervisor_id: to.hypervisor.id, status: 'running' });
  return back.uuid;
}

describe('a move back to the host that retains the last move’s copy', () => {
  it('goes through at once, the retained copy kept until it commits; twice over', async () => {
    const { a, b, instance } = await pair();
    const first = await moved(instance.id, b);
    const second = await movedBack(instance.id, a, first);
    const third = await movedBack(instance.id, b, second);
    await movedBack(instance.id, a, third);
    // The copy each move left is gone once the next move back committed; only the last is kept.
    const states = (await migrationsOf(instance.id)).map((m) => m.state).sort();
    expect(states).toEqual(['CLEANED_UP', 'CLEANED_UP', 'CLEANED_UP', 'COMPLETED']);
    expect(b.agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
  });

  it('fits on a host that had room for the instance only: the retained copy holds its disk, no cores or memory', async () => {
    const location = await seed.location(env.db);
    // Room for the instance (2 cores, 2 GiB) once, and for its disk twice: the copy kept and the one arriving.
    const snug = {
      ...SLOW_VERIFY,
      AGENT_CAPACITY: JSON.stringify({ cpu_cores: 2, memory_mb: 2048, disk_mb: 81_920 }),
    };
    const a = await env.hypervisorWithAgent(snug, { locationId: location.id });
    const b = await env.hypervisorWithAgent({}, { locationId: location.id });
    const instance = await env.provisionedInstance(a.hypervisor);
    const first = await moved(instance.id, b);
    await movedBack(instance.id, a, first);
  });

  it('that rolls back leaves the retained copy and its window as they were', async () => {
    const { a, b, instance } = await pair();
    const first = await moved(instance.id, b);
    const window = (await findMigration(env.db, first))?.retain_source_until;
    a.agent.armFault('migration.define_target', { mode: 'fail-permanently', times: 1 });
    const answer = await request(instance.id, a.hypervisor.id);
    expect(answer.status).toBe(202);
    await reaches(answer.body.attributes.uuid, 'ROLLED_BACK');
    expect(a.agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
    expect(a.agent.hypervisor().outgoing?.[first]).toEqual({ instance_id: instance.id });
    expect(b.agent.hypervisor().instances[instance.id]?.power_state).toBe('running');
    expect(await findMigration(env.db, first)).toMatchObject({
      state: 'COMPLETED',
      retain_source_until: window,
    });
  });

  it('given up after it started there (source_authoritative): the copy it set aside is put back, with its window', async () => {
    const { a, b, instance } = await pair();
    const first = await moved(instance.id, b);
    const window = (await findMigration(env.db, first))?.retain_source_until;
    a.agent.armFault('migration.verify_target', { mode: 'fail-permanently', times: 1 });
    const answer = await request(instance.id, a.hypervisor.id);
    expect(answer.status).toBe(202);
    const back = answer.body.attributes.uuid;
    await reaches(back, 'RECOVERY_REQUIRED');
    expect(a.agent.hypervisor().outgoing?.[first]?.set_aside).toBeDefined();
    const admin = { type: 'admin' as const, userId: (await seed.user(env.db, { admin: true })).id };
    await recoverMigrationWith(env.deps, admin, {
      migrationId: back,
      decision: 'source_authoritative',
      reason: 'the guest on B is the good one',
    });
    await reaches(back, 'ROLLED_BACK');
    const onA = a.agent.hypervisor();
    expect(onA.outgoing?.[first]).toEqual({ instance_id: instance.id });
    expect(onA.instances[instance.id]?.power_state).toBe('stopped');
    expect(await findMigration(env.db, first)).toMatchObject({
      state: 'COMPLETED',
      retain_source_until: window,
    });
    expect(b.agent.hypervisor().instances[instance.id]).toBeDefined();
  });

  it('asked twice at once: one goes, the other is refused and changes nothing', async () => {
    const { a, b, instance } = await pair();
    const first = await moved(instance.id, b);
    const answers = await Promise.all([
      request(instance.id, a.hypervisor.id),
      request(instance.id, a.hypervisor.id),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(refused.body.errors[0]).toMatchObject({ code: 'INSTANCE_MIGRATING' });
    expect((await migrationsOf(instance.id)).length).toBe(2);
    const won = answers.find((r) => r.status === 202)!.body.attributes;
    expect(await env.temporal.workflow.getHandle(won.workflow_id).result()).toEqual({ state: 'COMPLETED' });
    await reaches(first, 'CLEANED_UP');
  });
});

describe('a refused move back', () => {
  it('changes nothing: the retained copy, its migration and its window stay', async () => {
    const { a, b, instance } = await pair();
    const first = await moved(instance.id, b);
    const before = await findMigration(env.db, first);
    await updateHypervisor(env.db, a.hypervisor.id, { maintenance: true });
    try {
      const answer = await request(instance.id, a.hypervisor.id);
      expect(answer.status).toBe(409);
      expect(JSON.stringify(answer.body)).toContain('TARGET_IN_MAINTENANCE');
      // Time for anything the refusal would have set going (a cleanup takes well under a second here).
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(await findMigration(env.db, first)).toMatchObject({
        state: 'COMPLETED',
        retain_source_until: before?.retain_source_until,
      });
      expect(a.agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');
      expect((await migrationsOf(instance.id)).length).toBe(1);
    } finally {
      await updateHypervisor(env.db, a.hypervisor.id, { maintenance: false });
    }
  });
});
