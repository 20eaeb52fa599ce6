import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHypervisor, updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;

beforeAll(async () => {
  env = await startStack({
    agents: true,
    config: { MIGRATION_SOURCE_RETENTION_MS: '300', EVACUATION_CHECK_EVERY_MS: '300' },
  });
});
afterAll(() => env.close());

const call = (method: string, path: string, body?: unknown, key: string | null = env.admin.key) =>
  env.call(key, method, `/admin/cloudsvc${path}`, body);
const codeOf = (answer: { body: Body }) => answer.body.errors?.[0]?.code;

/** A hypervisor reaching `local` and `nfs`, with `count` running instances on `local`. */
async function node(count: number) {
  const { id: locationId } = await seed.location(env.db);
  const { hypervisor, agent } = await env.hypervisorWithAgent({}, { locationId });
  await updateHypervisor(env.db, hypervisor.id, { storageBackends: ['local', 'nfs'] });
  const guests = [];
  for (let i = 0; i < count; i++) guests.push(await env.provisionedInstance(hypervisor));
  return { hypervisor, agent, guests };
}

const backendOf = async (instanceId: string) =>
  await env.db
    .selectFrom('instances')
    .select(['storage_backend', 'status', 'operation_id'])
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();

const ended = (evacuationId: string, state: string) =>
  eventually(
    async () => {
      const { body } = await call('GET', `/evacuations/${evacuationId}`);
      return body.attributes.state === state ? (body.attributes as Body) : undefined;
    },
    60_000,
    `drain ${state}`,
  );

describe('draining a storage backend', () => {
  it('plans it read-only, then moves every instance’s disk off it: one blocked, one failing, skipped', async () => {
    const { hypervisor, agent, guests } = await node(4);
    await env.db.updateTable('instances').set({ status: 'error' }).where('id', '=', guests[3]!.id).execute();
    const path = `/hypervisors/${hypervisor.id}/backend-drains`;
    const body = { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO' };
    const plan = await call('POST', `${path}/plan`, body);
    expect(plan.status).toBe(200);
    expect(plan.body.attributes.moves).toHaveLength(3);
    expect(plan.body.attributes.unmovable).toEqual([
      {
        instance: { uuid: guests[3]!.id, name: guests[3]!.name },
        blockers: [expect.objectContaining({ code: 'INSTANCE_NOT_MIGRATABLE' })],
      },
    ]);
    expect((await backendOf(guests[0]!.id)).storage_backend).toBe('local');

    agent.armFault('storage.verify', { mode: 'fail-permanently' });
    const started = await call('POST', path, { ...body, max_parallel: 2, reason: 'retire the local array' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.attributes).toMatchObject({
      kind: 'backend',
      from_backend: 'local',
      to_backend: 'nfs',
      state: 'running',
    });
    const again = await call('POST', path, body);
    expect([again.status, codeOf(again)]).toEqual([409, 'EVACUATION_RUNNING']);

    const done = await ended(started.body.attributes.uuid, 'completed');
    expect(done.progress).toMatchObject({ total: 4, moved: 2, failed: 1, blocked: 1 });
    const failed = done.instances.find((i: Body) => i.state === 'failed');
    expect(failed).toMatchObject({ storage_move_state: 'ROLLED_BACK', migration_uuid: null });
    for (const item of done.instances as Body[]) {
      const row = await backendOf(item.instance.uuid);
      expect(row.storage_backend).toBe(item.state === 'moved' ? 'nfs' : 'local');
      expect(row.operation_id).toBeNull();
    }
    // A backend's drain does not put the node in maintenance.
    expect((await findHypervisor(env.db, hypervisor.id))?.maintenance).toBe(false);
  });

  it('is cancelled like an evacuation: the move under way rolls back, the rest is left', async () => {
    const { hypervisor, agent, guests } = await node(3);
    agent.armFault('storage.copy', { mode: 'hang' });
    const started = await call('POST', `/hypervisors/${hypervisor.id}/backend-drains`, {
      from_backend: 'local',
      to_backend: 'nfs',
      mode: 'AUTO',
      max_parallel: 1,
    });
    expect(started.status).toBe(202);
    const id = started.body.attributes.uuid;
    await eventually(
      async () => (await call('GET', `/evacuations/${id}`)).body.attributes.progress.migrating === 1,
      30_000,
      'a move under way',
    );
    expect((await call('POST', `/evacuations/${id}/cancel`, { reason: 'later' })).status).toBe(202);
    const done = await ended(id, 'cancelled');
    expect(done.progress).toMatchObject({ cancelled: 3, migrating: 0 });
    for (const guest of guests)
      expect(await backendOf(guest.id)).toMatchObject({ storage_backend: 'local', operation_id: null });
  });

  it('refuses bad input (400) and an unknown hypervisor (404)', async () => {
    const { hypervisor } = await node(0);
    for (const [suffix, body, field] of [
      ['/plan', { from_backend: 'local', mode: 'AUTO' }, 'to_backend'],
      [
        '',
        { from_backend: 'local', to_backend: 'nfs', mode: 'AUTO', max_parallel_per_target: 1 },
        'max_parallel_per_target',
      ],
    ] as const) {
      const answer = await call('POST', `/hypervisors/${hypervisor.id}/backend-drains${suffix}`, body);
      expect([answer.status, answer.body.errors[0].source.field]).toEqual([400, field]);
    }
    const unknown = await call('POST', `/hypervisors/${randomUUID()}/backend-drains`, {
      from_backend: 'local',
      to_backend: 'nfs',
      mode: 'AUTO',
    });
    expect([unknown.status, codeOf(unknown)]).toEqual([404, 'SVC-RES-404']);
  });
});
