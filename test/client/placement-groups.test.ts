import { randomInt, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disksToMove, holdTarget } from '../../services/migrations/target-holds.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Placement groups through the Client API and real (in-process) agents: a customer's groups
 * created, shown, listed and deleted; creates into a `spread` group land on distinct hypervisors
 * (concurrent ones included) and the one too many is refused with the reason and changes nothing;
 * a `spread_soft` group places it anyway.
 */
let env: Stack;
let catalog: Awaited<ReturnType<typeof seed.catalog>>;

beforeAll(async () => {
  env = await startStack({ agents: true, config: { INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000' } });
  catalog = await seed.catalog(env.db);
});
afterAll(() => env.close());

const api = (method: string, path: string, body?: unknown) =>
  env.client.call(method, `/api/client/cloud${path}`, body);

// Each location's pool a /24 of 100.64.0.0/10 no other run of this file's database took (pools never overlap).
let nextPool = randomInt(0, 200) * 64;

/** A location of its own with `hosts` hypervisors, each enrolled by an in-process agent. */
async function locationWithHosts(hosts: number) {
  const location = await seed.location(env.db);
  const n = nextPool++;
  const prefix = `100.${64 + (n >> 8)}.${n & 255}`;
  await seed.ipPool(env.db, location.id, `${prefix}.0/24`, `${prefix}.1`);
  const enrolled = await Promise.all(
    Array.from({ length: hosts }, () => env.hypervisorWithAgent({}, { locationId: location.id })),
  );
  return { location, hypervisorIds: enrolled.map((e) => e.hypervisor.id) };
}

async function group(location: string, policy: string, name = `g-${randomUUID().slice(0, 8)}`) {
  const res = await api('POST', '/placement-groups', { name, policy, location });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attributes as Body;
}

const order = (location: string, placementGroup?: string) =>
  api('POST', '/', {
    hostname: `pg-${randomUUID().slice(0, 6)}.example.com`,
    plan: catalog.plan.code,
    image: catalog.image.code,
    location,
    ...(placementGroup ? { placement_group: placementGroup } : {}),
  });

const hostOf = async (instanceId: string) =>
  (
    await env.db
      .selectFrom('instances')
      .select('hypervisor_id')
      .where('id', '=', instanceId)
      .executeTakeFirstOrThrow()
  ).hypervisor_id;

const running = (instanceId: string) =>
  eventually(
    async () =>
      (await api('GET', `/${instanceId}`)).body.attributes?.status === 'running' ? true : undefined,
    20_000,
    `instance ${instanceId} to run`,
  );

/** What a create touches in the location: instances, reservations and addresses held. */
async function footprint(locationId: string) {
  const count = async (query: ReturnType<typeof sql<{ n: number }>>) =>
    (await query.execute(env.db)).rows[0]!.n;
  return {
    instances: await count(sql`select count(*)::int as n from instances where location_id = ${locationId}`),
    reservations: await count(sql`select count(*)::int as n from reservations r
      join hypervisors h on h.id = r.hypervisor_id where h.location_id = ${locationId}`),
    addresses: await count(sql`select count(*)::int as n from ip_addresses a
      join ip_pools p on p.id = a.pool_id where p.location_id = ${locationId}`),
  };
}

describe('placement groups', () => {
  it('create, show, list and delete, twice; names are unique per account; a stranger sees none', async () => {
    const location = await seed.location(env.db);
    for (const round of [1, 2]) {
      const created = await group(location.code, 'spread', `web-${round}`);
      expect(created).toMatchObject({
        name: `web-${round}`,
        policy: 'spread',
        location: location.code,
        member_count: 0,
      });
      expect((await api('GET', `/placement-groups/${created.uuid}`)).body.attributes).toEqual(created);
      const list = (await api('GET', '/placement-groups?per_page=100')).body;
      expect(list.data.map((g: Body) => g.attributes.uuid)).toContain(created.uuid);
      const again = await api('POST', '/placement-groups', {
        name: `web-${round}`,
        policy: 'spread_soft',
        location: location.code,
      });
      expect(again.status).toBe(409);
      expect(again.body.errors[0].detail).toBe('You have a placement group of this name.');

      const theirs = `/api/client/cloud/placement-groups/${created.uuid}`;
      expect((await env.call(env.stranger, 'GET', theirs)).status).toBe(404);
      expect((await env.call(env.stranger, 'DELETE', theirs)).status).toBe(404);
      const strangerList = (await env.call(env.stranger, 'GET', '/api/client/cloud/placement-groups')).body;
      expect(strangerList.data.map((g: Body) => g.attributes.uuid)).not.toContain(created.uuid);

      expect((await api('DELETE', `/placement-groups/${created.uuid}`)).status).toBe(204);
      expect((await api('GET', `/placement-groups/${created.uuid}`)).status).toBe(404);
      expect((await api('DELETE', `/placement-groups/${created.uuid}`)).status).toBe(404);
    }
  });

  it('bad input is 400 naming the field', async () => {
    const location = await seed.location(env.db);
    const bad = await api('POST', '/placement-groups', {
      name: 'x',
      policy: 'pack',
      location: location.code,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.field).toBe('policy');
    const nowhere = await api('POST', '/placement-groups', {
      name: 'x',
      policy: 'spread',
      location: 'nowhere',
    });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.errors[0]).toMatchObject({
      source: { field: 'location' },
      detail: 'No such location.',
    });
  });

  it('a spread group over 3 hosts takes 3 instances on 3 hosts and refuses the 4th, changing nothing', async () => {
    const { location, hypervisorIds } = await locationWithHosts(3);
    const spread = await group(location.code, 'spread');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await order(location.code, spread.uuid);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      ids.push(res.body.attributes.uuid);
    }
    const hosts = await Promise.all(ids.map(hostOf));
    expect(new Set(hosts).size).toBe(3);
    expect([...hosts].sort()).toEqual([...hypervisorIds].sort());

    const before = await footprint(location.id);
    const fourth = await order(location.code, spread.uuid);
    expect(fourth.status).toBe(409);
    expect(fourth.body.errors[0].code).toBe('SVC-PLACEMENT-409');
    expect(fourth.body.errors[0].detail).toBe(
      `No hypervisor in location ${location.code} can take this plan now ` +
        '(3 holding another instance of its spread placement group).',
    );
    expect(await footprint(location.id)).toEqual(before);

    // Outside the group the location still has room.
    const outside = await order(location.code);
    expect(outside.status).toBe(202);
    expect((await api('GET', `/placement-groups/${spread.uuid}`)).body.attributes.member_count).toBe(3);

    // The administrator's view names the group.
    const seen = await env.call(env.admin, 'GET', `/api/application/cloudsvc/instances/${ids[0]}`);
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body.attributes.placement_group).toEqual({
      id: spread.uuid,
      name: spread.name,
      policy: 'spread',
    });
    await Promise.all([...ids, outside.body.attributes.uuid].map(running));
  });

  it('a soft group prefers free hosts and places the 4th anyway', async () => {
    const { location } = await locationWithHosts(3);
    const soft = await group(location.code, 'spread_soft');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await order(location.code, soft.uuid);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      ids.push(res.body.attributes.uuid);
    }
    const hosts = await Promise.all(ids.map(hostOf));
    expect(new Set(hosts.slice(0, 3)).size).toBe(3);
    expect(hosts.slice(0, 3)).toContain(hosts[3]);
    await Promise.all(ids.map(running));
  });

  it('concurrent creates into one spread group land on distinct hosts; the one too many is refused', async () => {
    const n = 4;
    const { location } = await locationWithHosts(n);
    const spread = await group(location.code, 'spread');
    const answers = await Promise.all(Array.from({ length: n + 1 }, () => order(location.code, spread.uuid)));
    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status !== 202);
    expect(accepted).toHaveLength(n);
    expect(refused.map((a) => a.body.errors[0].code)).toEqual(['SVC-PLACEMENT-409']);
    const hosts = await Promise.all(accepted.map((a) => hostOf(a.body.attributes.uuid)));
    expect(new Set(hosts).size).toBe(n);
    await Promise.all(accepted.map((a) => running(a.body.attributes.uuid)));
  });

  it('an order names the customer’s own group of its location, else 400 naming placement_group', async () => {
    const { location } = await locationWithHosts(1);
    const elsewhere = await seed.location(env.db);
    const other = await group(elsewhere.code, 'spread');
    const mismatch = await order(location.code, other.uuid);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0].source.field).toBe('placement_group');
    expect(mismatch.body.errors[0].detail).toContain(`in location ${elsewhere.code}`);

    const mine = await group(location.code, 'spread');
    const stranger = await env.call(env.stranger, 'POST', '/api/client/cloud', {
      hostname: 'intruder.example.com',
      plan: catalog.plan.code,
      image: catalog.image.code,
      location: location.code,
      placement_group: mine.uuid,
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors[0].source.field).toBe('placement_group');
    expect(stranger.body.errors[0].detail).toBe('No such placement group.');
    const notUuid = await order(location.code, 'not-a-uuid');
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.errors[0].source.field).toBe('placement_group');
  });

  it('a group with a member is not deleted; once its member is gone it is', async () => {
    const { location } = await locationWithHosts(1);
    const spread = await group(location.code, 'spread');
    const res = await order(location.code, spread.uuid);
    expect(res.status).toBe(202);
    const id = res.body.attributes.uuid;
    await running(id);
    const refused = await api('DELETE', `/placement-groups/${spread.uuid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'SVC-INUSE-409',
      detail: '1 instance is in the placement group; delete it first.',
    });
    expect((await api('DELETE', `/${id}`)).status).toBe(202);
    await eventually(
      async () => ((await api('GET', `/${id}`)).status === 404 ? true : undefined),
      20_000,
      'the member to be gone',
    );
    expect((await api('DELETE', `/placement-groups/${spread.uuid}`)).status).toBe(204);
  });

  it('a migration’s preflight refuses a target another member of the spread group holds', async () => {
    const { location, hypervisorIds } = await locationWithHosts(3);
    const spread = await group(location.code, 'spread');
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await order(location.code, spread.uuid)).body.attributes.uuid);
    await Promise.all(ids.map(running));
    const [mine, theirs] = await Promise.all(ids.map(hostOf));
    const free = hypervisorIds.find((h) => h !== mine && h !== theirs)!;
    const preflight = (target?: string) =>
      env.call(env.admin, 'POST', `/admin/cloudsvc/instances/${ids[0]}/migrations/preflight`, {
        mode: 'AUTO',
        ...(target ? { target_hypervisor_uuid: target } : {}),
      });

    const blocked = (await preflight(theirs!)).body.attributes;
    expect(blocked.ok).toBe(false);
    expect(blocked.blockers.map((b: Body) => b.code)).toEqual(['PLACEMENT_GROUP_SPREAD']);
    const best = (await preflight()).body.attributes;
    expect(best).toMatchObject({ ok: true, target: { uuid: free } });
    expect(best.candidates.map((c: Body) => c.uuid)).toEqual([free]);
    expect(best.rejected.find((r: Body) => r.uuid === theirs).reasons.map((b: Body) => b.code)).toEqual([
      'PLACEMENT_GROUP_SPREAD',
    ]);
    // The request's own check, in its transaction under the group's lock, whatever a stale preflight said.
    const instance = { id: ids[0]!, disk_mb: catalog.plan.disk_mb };
    const held = env.db.transaction().execute(async (trx) =>
      holdTarget(trx, {
        migrationId: randomUUID(),
        instanceId: instance.id,
        targetId: theirs!,
        instance: { cpu_cores: 1, memory_mb: 1024, disk_mb: instance.disk_mb },
        disks: await disksToMove(trx, instance),
        tokenTtlMs: 60_000,
      }),
    );
    await expect(held).rejects.toMatchObject({
      code: 'MIGRATION_BLOCKED',
      detail: 'The migration is blocked: PLACEMENT_GROUP_SPREAD.',
    });
  });

  it('an administrator orders into the user’s group; another user’s group is 400', async () => {
    const { location } = await locationWithHosts(1);
    const mine = await group(location.code, 'spread');
    const orderFor = (user: string) =>
      env.call(env.admin, 'POST', '/api/application/cloudsvc/instances', {
        user,
        hostname: `adm-${randomUUID().slice(0, 6)}.example.com`,
        plan: catalog.plan.code,
        image: catalog.image.code,
        location: location.code,
        placement_group: mine.uuid,
      });
    const wrong = await orderFor(env.stranger.id);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toMatchObject({
      source: { field: 'placement_group' },
      detail: 'No such placement group.',
    });
    const ordered = await orderFor(env.client.id);
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(202);
    const shown = await env.call(
      env.admin,
      'GET',
      `/api/application/cloudsvc/instances/${ordered.body.attributes.uuid}`,
    );
    expect(shown.body.attributes.placement_group).toMatchObject({ id: mine.uuid, policy: 'spread' });
    expect((await api('GET', `/placement-groups/${mine.uuid}`)).body.attributes.member_count).toBe(1);
    await running(ordered.body.attributes.uuid);
  });
});
