import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachToPrivateNetwork } from '../../services/networks/private-network-nics.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';

/**
 * Private networks through the Client API and real (in-process) agents: created per account and
 * location, joined and left by instances with an operation each; after every change each
 * hypervisor holds exactly the NICs the panel lists.
 */
const LIMIT = 12;
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack({ MAX_PRIVATE_NETWORKS_PER_USER: String(LIMIT) });
});
afterAll(() => t.close());

// Ranges no other run of this file's database took: the account's networks must not overlap.
let next = randomInt(0, 150) * 256;
const range = (prefix = 24) => {
  const n = next++;
  return `10.${100 + (n >> 8)}.${n & 255}.0/${prefix}`;
};

async function network(cidr = range(), name = `net-${randomUUID().slice(0, 8)}`): Promise<Body> {
  const res = await t.api('POST', '/private-networks', { name, location: t.location.code, cidr });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attributes;
}

/** The `n`th host address of a network's range (every range here ends in .0). */
const host = (net: Body, n: number) => net.cidr.replace(/\.0\/\d+$/, `.${n}`);

const shown = async (uuid: string): Promise<Body> =>
  (await t.api('GET', `/private-networks/${uuid}`)).body.attributes;

async function act(uuid: string, action: 'attach' | 'detach', body: Body, status = 202): Promise<Body> {
  const res = await t.api('POST', `/private-networks/${uuid}/${action}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.attributes;
}

/** The NICs the instance's hypervisor holds, as `address@network`. */
const nicsOnHost = (instanceId: string) =>
  (t.hostOf(instanceId).hypervisor().instances[instanceId]!.network?.nics ?? []).map(
    (nic) => `${nic.address}@${nic.network_id}`,
  );

/** Once the instance settled, the panel's NICs of the instance and its hypervisor's agree. */
async function agreed(instanceId: string, networks: Body[]): Promise<string[]> {
  await t.settled(instanceId);
  const listed = (await Promise.all(networks.map((n) => shown(n.uuid)))).flatMap((n) =>
    n.nics.filter((nic: Body) => nic.instance === instanceId).map((nic: Body) => `${nic.address}@${n.uuid}`),
  );
  expect(nicsOnHost(instanceId).sort()).toEqual(listed.sort());
  return listed;
}

describe('private networks', () => {
  it('create, show, list, and the same request again is refused by name and by range', async () => {
    const cidr = range();
    const created = await network(cidr, 'backend-a');
    expect(created).toMatchObject({
      name: 'backend-a',
      cidr,
      location: t.location.code,
      nic_count: 0,
      nics: [],
    });
    expect(await shown(created.uuid)).toMatchObject({ uuid: created.uuid, cidr });
    const list = (await t.api('GET', '/private-networks?per_page=100')).body;
    expect(list.data.map((n: Body) => n.attributes.uuid)).toContain(created.uuid);

    const again = await t.api('POST', '/private-networks', {
      name: 'backend-a',
      location: t.location.code,
      cidr,
    });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].detail).toBe(`The range overlaps your network backend-a (${cidr}).`);
    const sameName = await t.api('POST', '/private-networks', {
      name: 'backend-a',
      location: t.location.code,
      cidr: range(),
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body.errors[0].detail).toBe('You have a private network of this name.');
    // A wider range around it overlaps too; another account may take the very same range.
    const [a, b] = cidr.split('.');
    const wider = await t.api('POST', '/private-networks', {
      name: 'wide',
      location: t.location.code,
      cidr: `${a}.${b}.0.0/16`,
    });
    expect(wider.status).toBe(409);
    const theirs = await t.env.call(t.env.stranger, 'POST', '/api/client/cloud/private-networks', {
      name: 'backend-a',
      location: t.location.code,
      cidr,
    });
    expect(theirs.status).toBe(201);
    expect((await t.api('GET', '/private-networks?per_page=100')).body.meta.pagination.total).toBe(
      list.meta.pagination.total,
    );
  });

  it('two overlapping creates at once: one is created, the other refused', async () => {
    const [a, b] = range(24).split('.');
    const answers = await Promise.all([
      t.api('POST', '/private-networks', {
        name: 'race-1',
        location: t.location.code,
        cidr: `${a}.${b}.250.0/24`,
      }),
      t.api('POST', '/private-networks', {
        name: 'race-2',
        location: t.location.code,
        cidr: `${a}.${b}.250.128/25`,
      }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('bad ranges, names and locations are refused with the field named, and nothing is created', async () => {
    const before = (await t.api('GET', '/private-networks')).body.meta.pagination.total;
    const cases: [Body, string][] = [
      [{ cidr: '8.8.8.0/24' }, 'cidr'],
      [{ cidr: '10.1.1.1/24' }, 'cidr'],
      [{ cidr: '10.1.0.0/30' }, 'cidr'],
      [{ cidr: '10.0.0.0/8' }, 'cidr'],
      [{ cidr: 'fd00::/64' }, 'cidr'],
      [{ cidr: 'ten' }, 'cidr'],
      [{ location: 'nowhere' }, 'location'],
      [{ name: '' }, 'name'],
      [{ name: 'a\nb' }, 'name'],
    ];
    for (const [override, field] of cases) {
      const body = { name: 'bad', location: t.location.code, cidr: range(), ...override };
      const res = await t.api('POST', '/private-networks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].source.field, JSON.stringify(body)).toBe(field);
    }
    expect((await t.api('GET', '/private-networks')).body.meta.pagination.total).toBe(before);
  });

  it('two instances join, join again, one leaves, leaves again; the network is deleted once empty', async () => {
    const net = await network(range(29));
    const a = await t.instance();
    const b = await t.instance();
    const joined = await act(net.uuid, 'attach', { instance: a.id });
    expect(joined.nics).toEqual([expect.objectContaining({ instance: a.id, state: 'attaching' })]);
    await act(net.uuid, 'attach', { instance: b.id, address: host(net, 6) });
    expect(await agreed(a.id, [net])).toEqual([`${host(net, 1)}@${net.uuid}`]);
    expect(await agreed(b.id, [net])).toEqual([`${host(net, 6)}@${net.uuid}`]);
    const settled = await shown(net.uuid);
    expect(settled.nics.map((n: Body) => n.state)).toEqual(['attached', 'attached']);
    expect(settled.nic_count).toBe(2);
    const mac = settled.nics[0].mac;
    expect(mac).toMatch(/^02(:[0-9a-f]{2}){5}$/);

    expect(await act(net.uuid, 'attach', { instance: a.id }, 200)).toMatchObject({ nic_count: 2 });
    expect(await t.latestTask(a.id)).toMatchObject({ operation: 'network_attach', state: 'succeeded' });

    const busy = await t.api('DELETE', `/private-networks/${net.uuid}`);
    expect(busy.status).toBe(409);
    expect(busy.body.errors[0].code).toBe('SVC-INUSE-409');

    const leaving = await act(net.uuid, 'detach', { instance: a.id });
    expect(leaving.nics.find((n: Body) => n.instance === a.id)).toMatchObject({ state: 'detaching' });
    expect(await agreed(a.id, [net])).toEqual([]);
    await act(net.uuid, 'detach', { instance: a.id }, 200);
    expect(await t.latestTask(a.id)).toMatchObject({ operation: 'network_detach', state: 'succeeded' });
    expect((await t.api('GET', `/${a.id}`)).body.attributes.status).toBe('running');

    // Deleting the instance takes it off the network.
    expect((await t.api('DELETE', `/${b.id}`)).status).toBe(202);
    await eventually(
      async () => (await shown(net.uuid)).nic_count === 0,
      20_000,
      'the NIC to go with its instance',
    );
    expect((await t.api('DELETE', `/private-networks/${net.uuid}`)).status).toBe(204);
    expect((await t.api('DELETE', `/private-networks/${net.uuid}`)).status).toBe(404);
    expect((await t.api('GET', `/private-networks/${net.uuid}`)).status).toBe(404);
  });

  it('six instances joining at once get six distinct addresses, and each hypervisor has its own', async () => {
    const net = await network(range(29));
    const instances = await Promise.all(Array.from({ length: 6 }, () => t.instance()));
    const answers = await Promise.all(
      instances.map((i) => t.api('POST', `/private-networks/${net.uuid}/attach`, { instance: i.id })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(202));
    const addresses = (await Promise.all(instances.map((i) => agreed(i.id, [net])))).flat();
    expect(new Set(addresses).size).toBe(6);
    // A /29 has six hosts: a seventh finds the range full and changes nothing.
    const seventh = await t.instance();
    const full = await t.api('POST', `/private-networks/${net.uuid}/attach`, { instance: seventh.id });
    expect(full.status).toBe(409);
    expect(full.body.errors[0].code).toBe('SVC-IP-409');
    expect(await agreed(seventh.id, [net])).toEqual([]);
  });

  it('one instance joining twice at once joins once; leaving twice at once leaves once; two deletes at once delete once', async () => {
    const net = await network();
    const a = await t.instance();
    const joins = await Promise.all([
      t.api('POST', `/private-networks/${net.uuid}/attach`, { instance: a.id }),
      t.api('POST', `/private-networks/${net.uuid}/attach`, { instance: a.id }),
    ]);
    // One begins the operation; the other finds it under way (409) or, rarely, already done (200).
    expect(joins.filter((r) => r.status === 202)).toHaveLength(1);
    expect(joins.map((r) => r.status)).toEqual(expect.arrayContaining([expect.toBeOneOf([200, 409])]));
    expect(await agreed(a.id, [net])).toHaveLength(1);
    const leaves = await Promise.all([
      t.api('POST', `/private-networks/${net.uuid}/detach`, { instance: a.id }),
      t.api('POST', `/private-networks/${net.uuid}/detach`, { instance: a.id }),
    ]);
    expect(leaves.filter((r) => r.status === 202)).toHaveLength(1);
    expect(leaves.map((r) => r.status)).toEqual(expect.arrayContaining([expect.toBeOneOf([200, 409])]));
    expect(await agreed(a.id, [net])).toEqual([]);
    const deletes = await Promise.all([
      t.api('DELETE', `/private-networks/${net.uuid}`),
      t.api('DELETE', `/private-networks/${net.uuid}`),
    ]);
    expect(deletes.map((r) => r.status).sort()).toEqual([204, 404]);
  });

  it('a join the hypervisor fails leaves the instance off the network, and says why', async () => {
    const net = await network();
    const a = await t.instance();
    t.hostOf(a.id).armFault('network.apply', { mode: 'fail-permanently' });
    await act(net.uuid, 'attach', { instance: a.id });
    await t.settled(a.id);
    const task = await t.latestTask(a.id);
    expect(task).toMatchObject({ operation: 'network_attach', state: 'failed' });
    expect(task.error.message.length, JSON.stringify(task.error)).toBeGreaterThan(0);
    expect((await shown(net.uuid)).nics).toEqual([]);
    expect(nicsOnHost(a.id)).toEqual([]);
    expect((await t.api('GET', `/${a.id}/network`)).body.attributes).toMatchObject({ in_sync: true });
  });

  it('a join whose workflow cannot start (Temporal unreachable) is 503 and leaves the instance off the network', async () => {
    const net = await network();
    const { id } = await t.instance();
    const cut = { ...t.env.deps, config: { ...t.env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } };
    const customer = { type: 'user' as const, userId: t.env.client.id };
    await expect(
      attachToPrivateNetwork(cut, customer, {
        networkId: net.uuid,
        instanceId: id,
        address: null,
        correlationId: null,
      }),
    ).rejects.toMatchObject({ code: 'SVC-SYS-503' });
    expect((await shown(net.uuid)).nics).toEqual([]);
    expect((await t.api('GET', `/${id}`)).body.attributes.status).toBe('running');
    // It joins once Temporal answers.
    expect((await t.api('POST', `/private-networks/${net.uuid}/attach`, { instance: id })).status).toBe(202);
  });

  it('a leave the hypervisor fails keeps the instance on the network', async () => {
    const net = await network();
    const a = await t.instance();
    await act(net.uuid, 'attach', { instance: a.id });
    await agreed(a.id, [net]);
    t.hostOf(a.id).armFault('network.apply', { mode: 'fail-permanently' });
    await act(net.uuid, 'detach', { instance: a.id });
    await t.settled(a.id);
    expect(await t.latestTask(a.id)).toMatchObject({ operation: 'network_detach', state: 'failed' });
    expect((await shown(net.uuid)).nics).toEqual([
      expect.objectContaining({ instance: a.id, state: 'attached' }),
    ]);
    await eventually(
      async () => nicsOnHost(a.id).length === 1,
      10_000,
      'the hypervisor to have the NIC back',
    );
  });

  it('another customer’s network or instance, another location and bad input answer the standard errors', async () => {
    const mine = await network();
    const a = await t.instance();
    const stranger = (method: string, path: string, body?: unknown) =>
      t.env.call(t.env.stranger, method, `/api/client/cloud${path}`, body);
    expect((await stranger('GET', `/private-networks/${mine.uuid}`)).status).toBe(404);
    expect((await stranger('DELETE', `/private-networks/${mine.uuid}`)).status).toBe(404);
    expect((await stranger('POST', `/private-networks/${mine.uuid}/attach`, { instance: a.id })).status).toBe(
      404,
    );
    const theirs = await stranger('POST', '/private-networks', {
      name: 'x',
      location: t.location.code,
      cidr: range(),
    });
    expect(theirs.status).toBe(201);
    await act(theirs.body.attributes.uuid, 'attach', { instance: a.id }, 404);
    await act(randomUUID(), 'attach', { instance: a.id }, 404);
    await act(mine.uuid, 'attach', { instance: randomUUID() }, 404);

    for (const body of [
      {},
      { instance: 'nope' },
      { instance: a.id, address: 'x' },
      { instance: a.id, extra: 1 },
    ])
      await act(mine.uuid, 'attach', body, 400);
    const outside = await t.api('POST', `/private-networks/${mine.uuid}/attach`, {
      instance: a.id,
      address: '192.168.7.7',
    });
    expect(outside.status).toBe(400);
    const broadcast = host(mine, 255);
    expect(
      (await t.api('POST', `/private-networks/${mine.uuid}/attach`, { instance: a.id, address: broadcast }))
        .status,
    ).toBe(400);

    const elsewhere = await seed.location(t.env.db);
    const far = await t.api('POST', '/private-networks', {
      name: `far-${randomUUID().slice(0, 6)}`,
      location: elsewhere.code,
      cidr: range(),
    });
    expect(far.status).toBe(201);
    const refused = await t.api('POST', `/private-networks/${far.body.attributes.uuid}/attach`, {
      instance: a.id,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toBe('The instance is in another location than the network.');
    // The location is held by the network: an administrator cannot delete it under the customer.
    const held = await t.env.call(
      t.env.admin,
      'DELETE',
      `/api/application/cloudsvc/locations/${elsewhere.id}`,
    );
    expect(held.status).toBe(409);
    expect(held.body.errors[0].detail).toContain('1 private network');
    expect((await shown(mine.uuid)).nics).toEqual([]);
    expect(nicsOnHost(a.id)).toEqual([]);
    expect((await t.env.call(t.env.admin, 'GET', '/api/client/cloud/private-networks')).status).toBe(403);
  });

  it('an account holds at most MAX_PRIVATE_NETWORKS_PER_USER networks', async () => {
    const stranger = (method: string, path: string, body?: unknown) =>
      t.env.call(t.env.stranger, method, `/api/client/cloud${path}`, body);
    let refused: Body | undefined;
    for (let i = 0; i <= LIMIT && !refused; i++) {
      const res = await stranger('POST', '/private-networks', {
        name: `q-${i}`,
        location: t.location.code,
        cidr: range(),
      });
      if (res.status !== 201) refused = res;
    }
    expect(refused?.status).toBe(409);
    expect(refused?.body.errors[0].code).toBe('SVC-QUOTA-409');
    expect((await stranger('GET', '/private-networks')).body.meta.pagination.total).toBe(LIMIT);
  });
});
