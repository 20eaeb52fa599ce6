import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';

/**
 * An instance's addresses through the Client API and real (in-process) agents: attached from the
 * location's pools, detached, promoted, given reverse DNS; after each change the hypervisor holds
 * exactly the addresses the panel lists.
 */
let t: BackupStack;
let ipv6Prefix: string;
beforeAll(async () => {
  t = await startBackupStack({ MAX_ADDRESSES_PER_INSTANCE: '4' });
  // Groups written as the API writes them (no leading zeros, none zero), so the pool's addresses
  // compare as text with what the API answers.
  const group = () => randomInt(1, 0x10000).toString(16);
  ipv6Prefix = `fd${randomBytes(1).toString('hex')}:${group()}:${group()}`;
  await seed.ipPool(t.env.db, t.location.id, `${ipv6Prefix}::/64`, `${ipv6Prefix}::1`);
});
afterAll(() => t.close());

const addressesOf = async (instanceId: string): Promise<Body[]> =>
  (await t.api('GET', `/${instanceId}/network/ips?per_page=100`)).body.data.map((a: Body) => a.attributes);

/** The panel's addresses of the instance and its hypervisor's, once no change is under way. */
async function agreed(instanceId: string): Promise<Body[]> {
  await t.settled(instanceId);
  const listed = await addressesOf(instanceId);
  const guest = t.hostOf(instanceId).hypervisor().instances[instanceId]!;
  const network = guest.network;
  // Until its first network change, a guest has the primary addresses it was created with.
  const created = [guest.ipv4, guest.ipv6].flatMap((address) =>
    address ? [{ address, primary: true }] : [],
  );
  const onHost = (network?.addresses ?? created)
    .map((a) => `${a.address}${a.primary ? ' primary' : ''}`)
    .sort();
  expect(onHost).toEqual(listed.map((a) => `${a.address}${a.primary ? ' primary' : ''}`).sort());
  const overview = (await t.api('GET', `/${instanceId}/network`)).body.attributes;
  expect(overview).toMatchObject({ in_sync: true, revision: network?.revision ?? 0 });
  return listed;
}

async function attach(instanceId: string, family: 4 | 6 = 4): Promise<Body> {
  const res = await t.api('POST', `/${instanceId}/network/ips`, { family });
  expect(res.status).toBe(202);
  expect(res.body.attributes).toMatchObject({ state: 'attaching', primary: false, kind: 'fixed', family });
  await t.settled(instanceId);
  return res.body.attributes;
}

describe('instance addresses', () => {
  it('attach takes the next free address of the pool, twice in a row, and the hypervisor has the same set', async () => {
    const { id } = await t.instance();
    const [primary4, primary6] = await addressesOf(id);
    expect(primary4).toMatchObject({ family: 4, primary: true, state: 'attached', prefix: 24 });
    expect(primary6).toMatchObject({ family: 6, primary: true, prefix: 64, gateway: `${ipv6Prefix}::1` });

    const first = await attach(id);
    const second = await attach(id);
    expect(first.address).not.toBe(second.address);
    const listed = await agreed(id);
    expect(listed.map((a) => a.state)).toEqual(['attached', 'attached', 'attached', 'attached']);
    expect(listed.filter((a) => a.family === 4).map((a) => a.address)).toEqual([
      primary4.address,
      ...[first.address, second.address].sort(),
    ]);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'address_attach', state: 'succeeded' });
    expect((await t.api('GET', `/${id}`)).body.attributes.status).toBe('running');
  });

  it('an IPv6 attach gets an address of the IPv6 pool; the limit is SVC-QUOTA-409', async () => {
    const { id } = await t.instance();
    const v6 = await attach(id, 6);
    expect(v6.address.startsWith(`${ipv6Prefix}::`)).toBe(true);
    await attach(id);
    const refused = await t.api('POST', `/${id}/network/ips`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'SVC-QUOTA-409',
      detail: 'The instance holds its limit of 4 addresses; detach one first.',
    });
    expect(await agreed(id)).toHaveLength(4);
  });

  it('an exhausted pool is SVC-IP-409 and changes nothing', async () => {
    const location = await seed.location(t.env.db);
    const [a, b] = randomBytes(2);
    await seed.ipPool(t.env.db, location.id, `100.${64 + (a! % 64)}.${b}.${4 * (a! % 64)}/30`);
    await t.env.hypervisorWithAgent({}, { locationId: location.id });
    const created = await t.api('POST', '/', {
      hostname: 'tiny.example.com',
      plan: t.catalog.plan.code,
      image: t.catalog.image.code,
      location: location.code,
    });
    expect(created.status).toBe(202);
    const id: string = created.body.attributes.uuid;
    await t.settled(id, 'running');
    expect((await t.api('POST', `/${id}/network/ips`, {})).status).toBe(202);
    await t.settled(id);
    const refused = await t.api('POST', `/${id}/network/ips`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'SVC-IP-409',
      detail: 'The instance’s location has no free IPv4 address left.',
    });
    expect((await addressesOf(id)).map((x) => x.state)).toEqual(['attached', 'attached']);
    expect((await t.api('GET', `/${id}/tasks?per_page=1`)).body.data[0].attributes.operation).toBe(
      'address_attach',
    );
  });

  it('two attaches at once on one instance: one is accepted, the other refused with SVC-OP-409', async () => {
    const { id } = await t.instance();
    const answers = await Promise.all([
      t.api('POST', `/${id}/network/ips`, {}),
      t.api('POST', `/${id}/network/ips`, {}),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(answers.find((r) => r.status === 409)!.body.errors[0].code).toBe('SVC-OP-409');
    expect(await agreed(id)).toHaveLength(3);
  });

  it('detach gives the address back to its pool, once; the primary is refused with SVC-IP-PRIMARY-409', async () => {
    const { id } = await t.instance();
    const extra = await attach(id);
    const [primary] = await addressesOf(id);
    const refused = await t.api('DELETE', `/${id}/network/ips/${primary.uuid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('SVC-IP-PRIMARY-409');

    const res = await t.api('DELETE', `/${id}/network/ips/${extra.uuid}`);
    expect(res.status).toBe(202);
    expect(res.body.attributes.state).toBe('detaching');
    expect((await agreed(id)).map((a) => a.uuid)).not.toContain(extra.uuid);
    expect((await t.api('DELETE', `/${id}/network/ips/${extra.uuid}`)).status).toBe(404);
    // The pool has it again: the next attach, anywhere in the location, can take it.
    const inPool = await t.env.db
      .selectFrom('ip_addresses')
      .select('id')
      .where('id', '=', extra.uuid)
      .executeTakeFirst();
    expect(inPool).toBeUndefined();
  });

  it('promote swaps the primary in one step and the instance shows it; promoting it again changes nothing', async () => {
    const { id } = await t.instance();
    const [old] = await addressesOf(id);
    const extra = await attach(id);
    const res = await t.api('POST', `/${id}/network/ips/${extra.uuid}/promote`);
    expect(res.status).toBe(202);
    expect(res.body.attributes).toMatchObject({ primary: true });
    const listed = await agreed(id);
    expect(listed.filter((a) => a.family === 4 && a.primary).map((a) => a.uuid)).toEqual([extra.uuid]);
    expect(listed.find((a) => a.uuid === old.uuid)).toMatchObject({ primary: false });
    expect((await t.api('GET', `/${id}`)).body.attributes.primary_ipv4).toBe(extra.address);
    expect(t.hostOf(id).hypervisor().instances[id]!.ipv4).toBe(extra.address);

    const again = await t.api('POST', `/${id}/network/ips/${extra.uuid}/promote`);
    expect(again.status).toBe(200);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'address_promote', state: 'succeeded' });
    // The old primary is an extra address now: it may go.
    expect((await t.api('DELETE', `/${id}/network/ips/${old.uuid}`)).status).toBe(202);
    expect(await agreed(id)).toHaveLength(2);
  });

  it('a failed hypervisor step is reverted: the attach leaves nothing, the detach and the promote are undone', async () => {
    const { id, agent } = await t.instance();
    const before = await agreed(id);
    agent.armFault('network.apply', { mode: 'fail-permanently' });
    const failed = await t.api('POST', `/${id}/network/ips`, {});
    expect(failed.status).toBe(202);
    expect(await agreed(id)).toEqual(before);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'address_attach', state: 'failed' });

    const extra = await attach(id);
    // Applied, then failed: the hypervisor is given the network back.
    agent.armFault('network.apply', { mode: 'fail-after' });
    expect((await t.api('DELETE', `/${id}/network/ips/${extra.uuid}`)).status).toBe(202);
    expect((await agreed(id)).find((a) => a.uuid === extra.uuid)).toMatchObject({ state: 'attached' });

    agent.armFault('network.apply', { mode: 'fail-permanently' });
    expect((await t.api('POST', `/${id}/network/ips/${extra.uuid}/promote`)).status).toBe(202);
    const listed = await agreed(id);
    expect(listed.find((a) => a.uuid === extra.uuid)).toMatchObject({ primary: false });
    expect((await t.api('GET', `/${id}`)).body.attributes.primary_ipv4).toBe(before[0]!.address);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'address_promote', state: 'failed' });
  });

  it('reverse DNS: set, changed, cleared, each address its own record; bad names change nothing', async () => {
    const { id } = await t.instance();
    const [v4, v6] = await addressesOf(id);
    const set = await t.api('PATCH', `/${id}/network/ips/${v4.uuid}/rdns`, { rdns: 'Mail.Example.com' });
    expect(set.status).toBe(200);
    expect(set.body.attributes.rdns).toBe('mail.example.com');
    expect(
      (await t.api('PATCH', `/${id}/network/ips/${v4.uuid}/rdns`, { rdns: 'mail.example.com' })).status,
    ).toBe(200);
    await t.api('PATCH', `/${id}/network/ips/${v6.uuid}/rdns`, { rdns: 'v6.example.com' });
    for (const rdns of [
      'no-dots',
      '-bad.example.com',
      'a..b',
      `${'a'.repeat(64)}.example.com`,
      'x.123',
      42,
    ]) {
      const bad = await t.api('PATCH', `/${id}/network/ips/${v4.uuid}/rdns`, { rdns });
      expect(bad.status, String(rdns)).toBe(400);
      expect(bad.body.errors[0].source).toEqual({ field: 'rdns' });
    }
    expect((await t.api('PATCH', `/${id}/network/ips/${v4.uuid}/rdns`, {})).status).toBe(400);
    let listed = await addressesOf(id);
    expect(listed.map((a) => a.rdns)).toEqual(['mail.example.com', 'v6.example.com']);
    expect((await t.api('PATCH', `/${id}/network/ips/${v4.uuid}/rdns`, { rdns: null })).status).toBe(200);
    listed = await addressesOf(id);
    expect(listed.map((a) => a.rdns)).toEqual([null, 'v6.example.com']);
  });

  it('another customer’s instance or address, an unknown one, and bad bodies answer the standard errors', async () => {
    const { id } = await t.instance();
    const other = await t.instance();
    const [theirs] = await addressesOf(other.id);
    const missing = randomUUID();
    const as = (method: string, path: string, body?: unknown) =>
      t.env.call(t.env.stranger, method, `/api/client/cloud${path}`, body);
    for (const [method, path, body] of [
      ['GET', `/${id}/network`],
      ['GET', `/${id}/network/ips`],
      ['POST', `/${id}/network/ips`, {}],
      ['DELETE', `/${id}/network/ips/${theirs.uuid}`],
    ] as const) {
      expect((await as(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await t.api('DELETE', `/${id}/network/ips/${theirs.uuid}`)).status).toBe(404);
    expect((await t.api('POST', `/${id}/network/ips/${theirs.uuid}/promote`)).status).toBe(404);
    expect(
      (await t.api('PATCH', `/${id}/network/ips/${theirs.uuid}/rdns`, { rdns: 'a.example.com' })).status,
    ).toBe(404);
    expect((await t.api('DELETE', `/${id}/network/ips/${missing}`)).status).toBe(404);
    for (const body of [{ family: 5 }, { family: '4' }, { family: 4, address: '10.0.0.9' }]) {
      const bad = await t.api('POST', `/${id}/network/ips`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect(await agreed(id)).toHaveLength(2);
    expect((await addressesOf(other.id)).map((a) => a.rdns)).toEqual([null, null]);
  });

  it('50 attaches at once in one pool never share an address', async () => {
    const instances = await Promise.all(Array.from({ length: 50 }, () => t.instance()));
    const answers = await Promise.all(instances.map(({ id }) => t.api('POST', `/${id}/network/ips`, {})));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(202));
    const taken = answers.map((r) => r.body.attributes.address as string);
    expect(new Set(taken).size).toBe(50);
    const everywhere = await t.env.db
      .selectFrom('ip_addresses')
      .select('address')
      .where('pool_id', '=', t.pool.id)
      .execute();
    expect(new Set(everywhere.map((a) => a.address)).size).toBe(everywhere.length);
    await eventually(
      async () => {
        for (const { id } of instances) await agreed(id);
        return true;
      },
      60_000,
      'every instance to agree with its hypervisor',
    );
  });
});
