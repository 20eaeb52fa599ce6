import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { migrationPair, requestedMigration } from '../support/migrations.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A hypervisor's outbound migration bandwidth budget (docs/migration.md "Moves out of one
 * hypervisor"): set through the Application API's PATCH, shown in its body, and shared by the moves
 * out of it — each records the cap in force, budget / MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR or its
 * own lower one. No default cap is configured here, so a move asking none has none without a budget.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: { MIGRATION_SOURCE_RETENTION_MS: '300', MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR: '2' },
  });
});
afterAll(() => env.close());

const patch = (hypervisorId: string, body: unknown) =>
  env.call(env.admin, 'PATCH', `/api/application/cloudsvc/hypervisors/${hypervisorId}`, body);
const budgetOf = async (hypervisorId: string) =>
  (
    await env.db
      .selectFrom('hypervisors')
      .select('migration_bandwidth_mbps')
      .where('id', '=', hypervisorId)
      .executeTakeFirstOrThrow()
  ).migration_bandwidth_mbps;
const recordedCap = async (migrationId: string) =>
  (
    await env.db
      .selectFrom('migrations')
      .select('convergence')
      .where('id', '=', migrationId)
      .executeTakeFirstOrThrow()
  ).convergence?.bandwidth_mbps;

describe('a hypervisor’s outbound migration bandwidth budget', () => {
  it('is set by PATCH and shown, twice alike, and removed by null', async () => {
    const { source } = await migrationPair(env);
    const first = await patch(source.id, { migration_bandwidth_mbps: 100 });
    expect(first.status).toBe(200);
    expect(first.body.attributes.migration_bandwidth_mbps).toBe(100);
    const second = await patch(source.id, { migration_bandwidth_mbps: 100 });
    expect([second.status, second.body.attributes.migration_bandwidth_mbps]).toEqual([200, 100]);
    const shown = await env.call(env.admin, 'GET', `/api/application/cloudsvc/hypervisors/${source.id}`);
    expect(shown.body.attributes.migration_bandwidth_mbps).toBe(100);
    expect(await budgetOf(source.id)).toBe(100);

    const cleared = await patch(source.id, { migration_bandwidth_mbps: null });
    expect([cleared.status, cleared.body.attributes.migration_bandwidth_mbps]).toEqual([200, null]);
    expect(await budgetOf(source.id)).toBeNull();
  });

  it('refuses a budget that is not a whole number of Mbit/s from 1 with 400 naming it, and changes nothing', async () => {
    const { source } = await migrationPair(env);
    expect((await patch(source.id, { migration_bandwidth_mbps: 100 })).status).toBe(200);
    for (const bad of [-5, 0, 12.5, '100', 400_001]) {
      const answer = await patch(source.id, { migration_bandwidth_mbps: bad, cpu_cores: 7 });
      expect([answer.status, answer.body.errors?.[0]?.code], String(bad)).toEqual([400, 'SVC-REQ-400']);
      expect(answer.body.errors[0].source.field, String(bad)).toBe('migration_bandwidth_mbps');
    }
    expect(await budgetOf(source.id)).toBe(100);
    const cores = await env.db
      .selectFrom('hypervisors')
      .select('cpu_cores')
      .where('id', '=', source.id)
      .executeTakeFirstOrThrow();
    expect(cores.cpu_cores).not.toBe(7);
  });

  it('gives a move asking no cap its share: 100 Mbit/s over 2 moves records 50, shown by the admin API', async () => {
    const { source, target, instance } = await migrationPair(env);
    expect((await patch(source.id, { migration_bandwidth_mbps: 100 })).status).toBe(200);
    const moved = await requestedMigration(env, instance.id, target.id);
    expect(moved.convergence.bandwidth_mbps).toBe(50);
    expect(await recordedCap(moved.uuid)).toBe(50);
    const shown = await env.call(env.admin, 'GET', `/admin/cloudsvc/migrations/${moved.uuid}`);
    expect(shown.body.attributes.convergence.bandwidth_mbps).toBe(50);
  });

  it('keeps a lower cap the request asks', async () => {
    const { source, target, instance } = await migrationPair(env);
    expect((await patch(source.id, { migration_bandwidth_mbps: 100 })).status).toBe(200);
    const moved = await requestedMigration(env, instance.id, target.id, {
      mode: 'AUTO',
      convergence: { bandwidth_mbps: 20 },
    });
    expect(await recordedCap(moved.uuid)).toBe(20);
  });

  it('lowers a higher cap the request asks to the share', async () => {
    const { source, target, instance } = await migrationPair(env);
    expect((await patch(source.id, { migration_bandwidth_mbps: 100 })).status).toBe(200);
    const moved = await requestedMigration(env, instance.id, target.id, {
      mode: 'AUTO',
      convergence: { bandwidth_mbps: 400 },
    });
    expect(await recordedCap(moved.uuid)).toBe(50);
  });

  it('changes nothing without a budget', async () => {
    const { target, instance } = await migrationPair(env);
    const open = await requestedMigration(env, instance.id, target.id);
    expect(await recordedCap(open.uuid)).toBeNull();
    const pair = await migrationPair(env);
    const capped = await requestedMigration(env, pair.instance.id, pair.target.id, {
      mode: 'AUTO',
      convergence: { bandwidth_mbps: 300 },
    });
    expect(await recordedCap(capped.uuid)).toBe(300);
  });

  it('caps each move of an evacuation out of it, the evacuation’s policy keeping what it asked', async () => {
    const { source, instance } = await migrationPair(env);
    const second = await env.provisionedInstance(source);
    expect((await patch(source.id, { migration_bandwidth_mbps: 100 })).status).toBe(200);
    const answer = await env.call(env.admin, 'POST', `/admin/cloudsvc/hypervisors/${source.id}/evacuations`, {
      mode: 'AUTO',
      convergence: { bandwidth_mbps: 300 },
    });
    expect(answer.status).toBe(202);
    expect(answer.body.attributes.policy.convergence.bandwidth_mbps).toBe(300);
    await eventually(
      async () => {
        const shown = await env.call(
          env.admin,
          'GET',
          `/admin/cloudsvc/evacuations/${answer.body.attributes.uuid}`,
        );
        return shown.body.attributes.state === 'completed' ? shown : undefined;
      },
      60_000,
      'the evacuation to complete',
    );
    const moves = await env.db
      .selectFrom('migrations')
      .select(['source_hypervisor_id', 'convergence'])
      .where('instance_id', 'in', [instance.id, second.id])
      .execute();
    expect(moves.map((m) => [m.source_hypervisor_id, m.convergence?.bandwidth_mbps])).toEqual([
      [source.id, 50],
      [source.id, 50],
    ]);
  });
});
