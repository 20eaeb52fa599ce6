import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_STATES_UNDER_WAY } from '../../domain/migrations/outbound.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * An evacuation honours the node's limit of moves out (MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR, issue
 * 47 item 5) whatever its own max_parallel: the smaller one holds, and a move that waits for a slot
 * spends no attempt and is never blocked for it.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack({
    agents: true,
    // Agents heartbeat once a third of this (200 s): none in a test, so a target marked unreachable stays so.
    config: {
      MIGRATION_SOURCE_RETENTION_MS: '300',
      EVACUATION_CHECK_EVERY_MS: '300',
      HYPERVISOR_UNREACHABLE_AFTER_MS: '600000',
      MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR: '2',
    },
  });
});
afterAll(() => env.close());

const call = (method: string, path: string, body?: unknown) =>
  env.call(env.admin.key, method, `/admin/cloudsvc${path}`, body);

/** A node of its own location with `instances` guests and `count` hypervisors beside it (each ~2 s per 40 GB move). */
async function drainable(instances: number, count = 2) {
  const { id: locationId } = await seed.location(env.db);
  const withAgent = () => env.hypervisorWithAgent({ AGENT_SIM_TRANSFER_MS_PER_GB: '50' }, { locationId });
  const source = await withAgent();
  const targets = [];
  for (let i = 0; i < count; i++) targets.push(await withAgent());
  const guests = [];
  for (let i = 0; i < instances; i++) guests.push(await env.provisionedInstance(source.hypervisor));
  return { source, targets, guests };
}

/** The evacuation run to its end while the moves out of `hypervisorId` are sampled; the most seen at once. */
async function sampledUntilEnd(evacuationId: string, hypervisorId: string) {
  const samples: number[] = [];
  const done = await eventually(
    async () => {
      samples.push(await underWayOutOf(hypervisorId));
      const { body } = await call('GET', `/evacuations/${evacuationId}`);
      return body.attributes.state === 'completed' ? (body.attributes as Body) : undefined;
    },
    120_000,
    'the evacuation completed',
  );
  return { done, most: Math.max(...samples) };
}

/** The migrations under way out of a hypervisor now. */
const underWayOutOf = async (hypervisorId: string) =>
  (
    await env.db
      .selectFrom('migrations')
      .select('id')
      .where('source_hypervisor_id', '=', hypervisorId)
      .where('state', 'in', MIGRATION_STATES_UNDER_WAY)
      .execute()
  ).length;

/** The most migrations of these instances that overlapped, each from its request to its end, by their recorded states. */
async function overlapping(instanceIds: string[]) {
  const rows = await env.db
    .selectFrom('migrations as m')
    .innerJoin('migration_events as e', 'e.migration_id', 'm.id')
    .select(['m.id', 'e.state', 'e.at'])
    .where('m.instance_id', 'in', instanceIds)
    .execute();
  const spans = new Map<string, { from: number; to: number }>();
  for (const r of rows) {
    const span = spans.get(r.id) ?? { from: Infinity, to: -Infinity };
    const at = r.at.getTime();
    if (r.state === 'REQUESTED') span.from = Math.min(span.from, at);
    if (['COMPLETED', 'ROLLED_BACK'].includes(r.state)) span.to = Math.max(span.to, at);
    spans.set(r.id, span);
  }
  const all = [...spans.values()];
  return Math.max(0, ...all.map((s) => all.filter((o) => o.from <= s.from && s.from < o.to).length));
}

describe('an evacuation under the limit of moves out of its node', () => {
  for (const round of [1, 2])
    it(`never has more than 2 moves out of a node of 4 at max_parallel 4, and moves them all (round ${round})`, async () => {
      const { source, guests } = await drainable(4);
      const answer = await call('POST', `/hypervisors/${source.hypervisor.id}/evacuations`, {
        mode: 'AUTO',
        max_parallel: 4,
        max_parallel_per_target: 4,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(202);
      const evacuationId = answer.body.attributes.uuid as string;

      // Sampled while it runs: the moves out of the node. (The evacuation's own `migrating` count may
      // read 3: an item stays migrating after its move completed until the run's next round settles it.)
      const { done, most } = await sampledUntilEnd(evacuationId, source.hypervisor.id);
      expect(most).toBe(2);
      expect(await overlapping(guests.map((g) => g.id))).toBe(2);

      expect(done.progress).toMatchObject({ total: 4, moved: 4, failed: 0, blocked: 0, pending: 0 });
      // Waiting for a slot spent no try: each instance moved at its first.
      for (const item of done.instances as Body[])
        expect(item).toMatchObject({ state: 'moved', reasons: [] });
      const attempts = await env.db
        .selectFrom('evacuation_items')
        .select('attempts')
        .where('evacuation_id', '=', evacuationId)
        .execute();
      expect(attempts.map((a) => a.attempts)).toEqual([1, 1, 1, 1]);
      expect(await underWayOutOf(source.hypervisor.id)).toBe(0);
    });

  it('a restore of four from one host keeps at most two moves out of that host, and brings all four home', async () => {
    const { source, targets, guests } = await drainable(4, 1);
    const ids = guests.map((g) => g.id);
    const policy = { mode: 'AUTO', max_parallel: 4, max_parallel_per_target: 4 };
    const drain = await call('POST', `/hypervisors/${source.hypervisor.id}/evacuations`, policy);
    expect(drain.status, JSON.stringify(drain.body)).toBe(202);
    const evacuation = await sampledUntilEnd(drain.body.attributes.uuid, source.hypervisor.id);
    expect(evacuation.done.progress).toMatchObject({ moved: 4, total: 4 });
    await eventually(
      async () => {
        const states = await env.db
          .selectFrom('migrations')
          .select('state')
          .where('instance_id', 'in', ids)
          .execute();
        return states.every((m) => m.state === 'CLEANED_UP');
      },
      30_000,
      'the copies on the node removed',
    );
    const away = targets[0]!.hypervisor.id;
    const back = await env.call(
      env.admin.key,
      'POST',
      `/api/application/cloudsvc/hypervisors/${source.hypervisor.id}/maintenance`,
      { enabled: false },
    );
    expect(back.status).toBe(200);

    const restore = await call('POST', `/evacuations/${drain.body.attributes.uuid}/restore`, {
      max_parallel: 4,
      max_parallel_per_target: 4,
    });
    expect(restore.status, JSON.stringify(restore.body)).toBe(202);
    const home = await sampledUntilEnd(restore.body.attributes.uuid, away);
    expect(home.most).toBe(2);
    expect(home.done.progress).toMatchObject({ total: 4, moved: 4, blocked: 0, failed: 0 });
    const places = await env.db
      .selectFrom('instances')
      .select('hypervisor_id')
      .where('id', 'in', ids)
      .execute();
    expect(places.map((p) => p.hypervisor_id)).toEqual(Array(4).fill(source.hypervisor.id));
  });
});
