import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedStatePath } from '../../agent/drivers/simulated/state.js';
import { listActivityOfInstance } from '../../db/repositories/events/activity-log.js';
import { listOperationsOfInstance } from '../../db/repositories/instances/instance-operation-reads.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { eventually } from '../support/eventually.js';
import { seed } from '../support/seed.js';
import { type Party, type Stack, startStack } from '../support/stack.js';

/**
 * The panel believes its hypervisors' inventories, not its own records: a guest gone or stopped
 * behind the panel's back is shown as it is, a guest back clears the flag, and nothing under an
 * operation is touched. First with a real agent and its simulated host, then by hand on the Agent API.
 */
const SETTLE_MS = 1500;
let env: Stack;
beforeAll(async () => {
  env = await startStack({
    agents: true,
    // A heartbeat every 2 s: the agent looks at its guests that often.
    config: { GUEST_INVENTORY_SETTLE_MS: String(SETTLE_MS), HYPERVISOR_UNREACHABLE_AFTER_MS: '6000' },
  });
});
afterAll(() => env.close());

const instanceRow = async (id: string) => (await findInstance(env.db, id))!;
const events = async (id: string) => (await listActivityOfInstance(env.db, id)).map((e) => e.event).reverse();
const unknownGuests = async (hypervisorId: string) => {
  const res = await env.admin.call(
    'GET',
    `/api/application/cloudsvc/hypervisors/${hypervisorId}/unknown-guests`,
  );
  expect(res.status).toBe(200);
  return res.body.data.map((g: { attributes: { uuid: string } }) => g.attributes.uuid);
};

/** Edits the simulated host's state file, as an operator (or a lost disk) would behind the agent's back. */
function editHost(stateDir: string, edit: (instances: Record<string, unknown>) => void) {
  const path = simulatedStatePath(stateDir);
  const state = JSON.parse(readFileSync(path, 'utf8'));
  edit(state.instances);
  writeFileSync(path, JSON.stringify(state));
}

/** Makes the instance's record older than the settle window, as if it had been still a while. */
const stillFor = (instanceId: string) =>
  env.db
    .updateTable('instances')
    .set({ updated_at: sql`now() - interval '1 hour'` })
    .where('id', '=', instanceId)
    .execute();

describe('with a real agent and its simulated host', () => {
  it('flags an instance whose guest is gone, reports a guest it does not know, and clears both when they change', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent({ AGENT_INVENTORY_INTERVAL_MS: '60000' });
    const instance = await env.provisionedInstance(hypervisor);
    expect((await instanceRow(instance.id)).status).toBe('running');
    const { stateDir } = agent;

    let removed: unknown;
    const stranger = randomUUID();
    editHost(stateDir, (instances) => {
      removed = instances[instance.id];
      delete instances[instance.id];
      instances[stranger] = { ...(removed as object), power_state: 'stopped' };
    });
    await eventually(async () => (await instanceRow(instance.id)).status === 'error', 20_000, 'flagged');
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'error', guest_drift: 'missing' });
    expect((await events(instance.id)).filter((e) => e.startsWith('instance.guest_'))).toEqual([
      'instance.guest_missing',
    ]);
    // The customer sees it on the instance, in its diagnostics and in its history.
    const shown = await env.client.call('GET', `/api/client/cloud/${instance.id}`);
    expect(shown.body.attributes).toMatchObject({ status: 'error', guest_drift: { state: 'missing' } });
    expect(shown.body.attributes.guest_drift.since).toMatch(/Z$/);
    const diagnostics = await env.client.call('GET', `/api/client/cloud/${instance.id}/diagnostics`);
    expect(diagnostics.body.attributes).toMatchObject({ status: 'error', guest_drift: { state: 'missing' } });
    const history = await env.client.call('GET', `/api/client/cloud/${instance.id}/activity`);
    expect(JSON.stringify(history.body)).toContain('instance.guest_missing');
    expect(JSON.stringify(history.body)).not.toContain(hypervisor.id);
    // The administrator sees the guest no instance names.
    await eventually(async () => (await unknownGuests(hypervisor.id)).includes(stranger), 10_000, 'unknown');
    const entry = await env.db
      .selectFrom('activity_log')
      .select(['event', 'detail'])
      .where('event', '=', 'hypervisor.unknown_guest')
      .where(sql<boolean>`detail->>'guest_uuid' = ${stranger}`)
      .execute();
    expect(entry).toHaveLength(1);
    // Nothing was asked of the host: no operation but the one that created the instance.
    expect((await listOperationsOfInstance(env.db, instance.id)).map((o) => o.kind)).toEqual(['provision']);

    // The guest is back (an operator restored it) and the stranger gone: the flag clears itself.
    editHost(stateDir, (instances) => {
      instances[instance.id] = removed;
      delete instances[stranger];
    });
    await eventually(async () => (await instanceRow(instance.id)).status === 'running', 20_000, 'cleared');
    expect(await instanceRow(instance.id)).toMatchObject({ guest_drift: null, guest_drift_since: null });
    expect((await events(instance.id)).filter((e) => e.startsWith('instance.guest_'))).toEqual([
      'instance.guest_missing',
      'instance.guest_running',
    ]);
    await eventually(async () => (await unknownGuests(hypervisor.id)).length === 0, 10_000, 'stranger gone');
  });
});

describe('by hand on the Agent API', () => {
  const report = (
    agent: Party,
    guests: {
      instance_uuid: string;
      power_state: string;
      hot_ceiling?: { cpu_cores: number; memory_mb: number };
    }[],
  ) => agent.call('POST', '/api/cloudsvc/agent/inventory', { guests });

  async function placed(status: 'running' | 'stopped' = 'running') {
    const agent = await env.agent();
    const instance = await seed.instance(env.db, {
      userId: env.client.id,
      locationId: agent.hypervisor.location_id,
      hypervisorId: agent.hypervisor.id,
      status,
    });
    return { agent, instance };
  }

  it('takes the same report twice, and two at once, as one', async () => {
    const { agent, instance } = await placed();
    await stillFor(instance.id);
    const stopped = [{ instance_uuid: instance.id, power_state: 'stopped' }];
    const [a, b] = await Promise.all([report(agent, stopped), report(agent, stopped)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.attributes.corrected + b.body.attributes.corrected).toBe(1);
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'stopped', guest_drift: 'stopped' });
    const since = (await instanceRow(instance.id)).guest_drift_since;

    const again = await report(agent, stopped);
    expect(again.body.attributes).toEqual({ received: 1, corrected: 0, unknown: 0, deferred: 0 });
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'stopped', guest_drift_since: since });
    expect(await events(instance.id)).toEqual(['instance.guest_stopped']);

    // Started again on the host by an operator: once the record has been still, the next report puts
    // the instance back to running and clears the flag.
    const runningNow = [{ instance_uuid: instance.id, power_state: 'running' }];
    expect((await report(agent, runningNow)).body.attributes).toMatchObject({ corrected: 0, deferred: 1 });
    await stillFor(instance.id);
    expect((await report(agent, runningNow)).body.attributes).toMatchObject({ corrected: 1, deferred: 0 });
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'running', guest_drift: null });
    expect(await events(instance.id)).toEqual(['instance.guest_stopped', 'instance.guest_running']);
  });

  it('leaves alone an instance under a running operation, one just changed, and another hypervisor’s', async () => {
    const { agent, instance } = await placed();
    const other = await placed();
    await stillFor(instance.id);
    await stillFor(other.instance.id);
    // A stop the agent has not picked up yet: the operation runs, its guest is not reported.
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'stopping' });
    const busy = await report(agent, []);
    expect(busy.body.attributes.corrected).toBe(0);
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'stopping', guest_drift: null });
    expect(await instanceRow(other.instance.id)).toMatchObject({ status: 'running', guest_drift: null });

    // Just changed: an inventory taken before the change may not undo it; once still, it counts.
    const fresh = await placed();
    expect((await report(fresh.agent, [])).body.attributes).toMatchObject({ corrected: 0, deferred: 1 });
    expect(await instanceRow(fresh.instance.id)).toMatchObject({ status: 'running', guest_drift: null });
    await new Promise((r) => setTimeout(r, SETTLE_MS + 500));
    expect((await report(fresh.agent, [])).body.attributes.corrected).toBe(1);
    expect(await instanceRow(fresh.instance.id)).toMatchObject({ status: 'error', guest_drift: 'missing' });
  });

  it('takes the room a report gives a guest only once its record has been still, twice as once', async () => {
    const { agent, instance } = await placed();
    const roomOf = () =>
      env.db
        .selectFrom('instances')
        .select(['hot_ceiling_cpu_cores', 'hot_ceiling_memory_mb'])
        .where('id', '=', instance.id)
        .executeTakeFirstOrThrow();
    const before = await roomOf();
    const room = [
      { instance_uuid: instance.id, power_state: 'running', hot_ceiling: { cpu_cores: 6, memory_mb: 6144 } },
    ];
    // Just changed (a boot that settled a moment ago): the report may predate it and says nothing.
    expect((await report(agent, room)).status).toBe(200);
    expect(await roomOf()).toEqual(before);
    await stillFor(instance.id);
    const [a, b] = await Promise.all([report(agent, room), report(agent, room)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await report(agent, room)).toMatchObject({ status: 200 });
    expect(await roomOf()).toEqual({ hot_ceiling_cpu_cores: 6, hot_ceiling_memory_mb: 6144 });
  });

  it('refuses a malformed inventory and changes nothing', async () => {
    const { agent, instance } = await placed();
    await stillFor(instance.id);
    const twice = [
      { instance_uuid: instance.id, power_state: 'running' },
      { instance_uuid: instance.id, power_state: 'stopped' },
    ];
    const duplicated = await report(agent, twice);
    expect(duplicated.status).toBe(400);
    expect(duplicated.body.errors[0].code).toBeDefined();
    expect((await report(agent, [{ instance_uuid: 'web-1', power_state: 'running' }])).status).toBe(400);
    expect((await report(agent, [{ instance_uuid: instance.id, power_state: 'paused' }])).status).toBe(400);
    expect(await instanceRow(instance.id)).toMatchObject({ status: 'running', guest_drift: null });
    // Only an agent's credential may report.
    expect([401, 403]).toContain(
      (await env.client.call('POST', '/api/cloudsvc/agent/inventory', { guests: [] })).status,
    );
    expect((await env.call(null, 'POST', '/api/cloudsvc/agent/inventory', { guests: [] })).status).toBe(401);
  });
});
