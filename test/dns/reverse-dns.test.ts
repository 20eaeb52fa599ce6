import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import { ptrName } from '../../domain/dns/reverse-zones.js';
import { reverseDnsWorkflowId } from '../../domain/workflow-ids.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { type PowerDns, startPowerDns } from '../support/powerdns.js';
import {
  powerDnsApi,
  powerDnsPresent,
  serveLocation,
  zoneAbove,
  zoneOfPool,
} from '../support/powerdns-setup.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Reverse DNS published in a real PowerDNS authoritative server (started here, its API and DNS on
 * loopback ports of its own), driven through the Client and Application APIs with a real worker,
 * and read back with DNS queries to that server, as a resolver would.
 */
let t: Stack;
let pdns: PowerDns;
let location: { id: string; code: string };
let zone4: string;
let zone6: string;
let pool4: string;
let ipv6Prefix: string;
let instanceId: string;

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);
const client = (method: string, path: string, body?: unknown) =>
  t.call(t.client, method, `/api/client/cloud${path}`, body);

/** One more address of the customer's instance (IPv4 or IPv6), taken as the API takes them. */
async function address(family: 4 | 6): Promise<{ id: string; address: string }> {
  const taken = await allocateAddress(t.db, {
    locationId: location.id,
    family,
    instanceId,
    userId: t.client.id,
    role: 'additional',
  });
  if (!taken) throw new Error('pool full');
  return taken;
}

const rdnsPath = (addressId: string) => `/${instanceId}/network/ips/${addressId}/rdns`;

/** The address as the customer sees it, once its record is no longer pending. */
async function settled(addressId: string, status?: string): Promise<Body> {
  return eventually(
    async () => {
      const listed = (await client('GET', `/${instanceId}/network/ips?per_page=100`)).body.data as Body[];
      const found = listed.map((a) => a.attributes).find((a) => a.uuid === addressId);
      if (!found || found.rdns_status === 'pending') return undefined;
      return status === undefined || found.rdns_status === status ? found : undefined;
    },
    60_000,
    `the record of ${addressId} to settle${status ? ` ${status}` : ''}`,
  );
}

const installed = powerDnsPresent();

beforeAll(async () => {
  if (!installed) return;
  pdns = await startPowerDns();
  console.log(`PowerDNS answered its API ${pdns.startedInMs} ms after start`);
  t = await startStack({ worker: true, config: { PROVIDER_ALLOW_HTTP: 'true' } });
  const loc = await seed.location(t.db);
  const pool = await seed.uniqueIpv4Pool(t.db, loc.id);
  pool4 = pool.cidr;
  const group = () => randomBytes(2).toString('hex');
  ipv6Prefix = `fd${randomBytes(1).toString('hex')}:${group()}:${group()}:${group()}`;
  await seed.ipPool(t.db, loc.id, `${ipv6Prefix}::/64`, `${ipv6Prefix}::1`);
  zone4 = zoneOfPool(pool4);
  zone6 = zoneAbove(`${ipv6Prefix}::1`, 16);
  await pdns.createZone(zone4);
  await pdns.createZone(zone6);

  // The zones as an operator may write them: the provider keeps them lower-case and fully qualified.
  const served = await serveLocation(
    admin,
    loc.id,
    powerDnsApi(pdns, [zone4.toUpperCase().slice(0, -1), zone6]),
  );
  expect(served.made.body.attributes.dns_zones).toEqual([zone4, zone6]);
  expect(JSON.stringify(served.keyed.body)).not.toContain(pdns.apiKey);
  expect(served.named.body.attributes).toMatchObject({ dns_provider: served.provider });
  location = { id: loc.id, code: loc.code };
  instanceId = (await seed.instance(t.db, { userId: t.client.id, locationId: loc.id })).id;
});
afterAll(async () => {
  await t?.close();
  await pdns?.close();
});

describe.runIf(installed)('reverse DNS published to PowerDNS', () => {
  it('a PTR set, changed twice in a row and cleared through the Client API answers from the DNS server', async () => {
    const ip = await address(4);
    const set = await client('PATCH', rdnsPath(ip.id), { rdns: 'Mail.Example.com' });
    expect(set.status).toBe(200);
    expect(set.body.attributes).toMatchObject({ rdns: 'mail.example.com', rdns_status: 'pending' });
    expect(await settled(ip.id)).toMatchObject({ rdns_status: 'published', rdns_failure: null });
    expect(await pdns.resolvePtr(ip.address)).toEqual(['mail.example.com']);

    // Twice on one address without waiting for the first to be published: the server ends with
    // the second, and says so.
    const first = await client('PATCH', rdnsPath(ip.id), { rdns: 'first.example.com' });
    const second = await client('PATCH', rdnsPath(ip.id), { rdns: 'second.example.com' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await settled(ip.id)).toMatchObject({ rdns: 'second.example.com', rdns_status: 'published' });
    expect(await pdns.resolvePtr(ip.address)).toEqual(['second.example.com']);

    const cleared = await client('PATCH', rdnsPath(ip.id), { rdns: null });
    expect(cleared.body.attributes).toMatchObject({ rdns: null, rdns_status: 'pending' });
    expect(await settled(ip.id)).toMatchObject({ rdns: null, rdns_status: 'published' });
    expect(await pdns.resolvePtr(ip.address)).toEqual([]);
  });

  it('ten changes in a row each answer from the DNS server (the time each took printed)', async () => {
    const ip = await address(4);
    const took: number[] = [];
    for (let i = 0; i < 10; i++) {
      const began = performance.now();
      await client('PATCH', rdnsPath(ip.id), { rdns: `n${i}.example.com` });
      await eventually(async () => (await pdns.resolvePtr(ip.address))[0] === `n${i}.example.com`, 20_000);
      took.push(performance.now() - began);
    }
    took.sort((a, b) => a - b);
    const p50 = Math.round(took[4]!);
    // A figure to read, not a target to hold here: the machine's load decides it.
    console.log(`rDNS change → answered by the DNS server: p50 ${p50} ms, max ${Math.round(took[9]!)} ms`);
    expect(await settled(ip.id, 'published')).toMatchObject({ rdns: 'n9.example.com' });
  });

  it('two addresses at once, an IPv4 and an IPv6 one, each get their own record', async () => {
    const [v4, v6] = [await address(4), await address(6)];
    const answers = await Promise.all([
      client('PATCH', rdnsPath(v4.id), { rdns: 'four.example.com' }),
      client('PATCH', rdnsPath(v6.id), { rdns: 'six.example.com' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await Promise.all([settled(v4.id, 'published'), settled(v6.id, 'published')]);
    expect(await pdns.resolvePtr(v4.address)).toEqual(['four.example.com']);
    expect(await pdns.resolvePtr(v6.address)).toEqual(['six.example.com']);
  });

  it('the Application API sets any address’s record and lists its state', async () => {
    const ip = await address(4);
    const put = await admin('PUT', `/rdns/${ip.id}`, { rdns: 'abuse.provider.example' });
    expect(put.status).toBe(200);
    expect(put.body.attributes).toMatchObject({ rdns: 'abuse.provider.example' });
    await settled(ip.id, 'published');
    expect(await pdns.resolvePtr(ip.address)).toEqual(['abuse.provider.example']);
    const listed = (await admin('GET', `/rdns?location=${location.code}&per_page=100`)).body.data as Body[];
    expect(listed.map((r) => r.attributes).find((r) => r.uuid === ip.id)).toMatchObject({
      rdns: 'abuse.provider.example',
      rdns_status: 'published',
      rdns_failure: null,
    });
  });

  it('names that are not DNS names are refused with 400 naming the field, and nothing changes', async () => {
    const ip = await address(4);
    for (const rdns of [
      'single',
      'under_score.example.com',
      'trailing.dot.example.com.',
      `${'a'.repeat(64)}.example.com`,
      '-lead.example.com',
      'x.123',
      '',
    ]) {
      const refused = await client('PATCH', rdnsPath(ip.id), { rdns });
      expect(refused.status, rdns).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400', source: { field: 'rdns' } });
    }
    const row = (await client('GET', `/${instanceId}/network/ips?per_page=100`)).body.data
      .map((a: Body) => a.attributes)
      .find((a: Body) => a.uuid === ip.id);
    expect(row).toMatchObject({ rdns: null, rdns_status: null });
  });

  it('an address outside the provider’s zones is failed with the reason, not retried', async () => {
    // A pool of the location that no zone of its provider covers.
    const other = await seed.uniqueIpv4Pool(t.db, location.id);
    const outside = await t.db
      .insertInto('ip_addresses')
      .values({
        pool_id: other.id,
        address: other.cidr.replace(/0\/24$/, '9'),
        user_id: t.client.id,
        instance_id: instanceId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await client('PATCH', rdnsPath(outside.id), { rdns: 'nowhere.example.com' });
    expect(await settled(outside.id)).toMatchObject({
      rdns_status: 'failed',
      rdns_failure: 'outside_zones',
      rdns_failure_detail: 'The address is in none of the reverse zones the location’s DNS provider serves.',
    });
  });

  it('a PowerDNS stopped mid-way: the record is failed (unreachable), then published once it is back', async () => {
    const ip = await address(4);
    await client('PATCH', rdnsPath(ip.id), { rdns: 'before.example.com' });
    await settled(ip.id, 'published');
    await pdns.stop();
    try {
      await client('PATCH', rdnsPath(ip.id), { rdns: 'after.example.com' });
      expect(await settled(ip.id, 'failed')).toMatchObject({
        rdns: 'after.example.com',
        rdns_failure: 'unreachable',
        rdns_failure_detail: 'The DNS server did not answer (refused, reset or timed out).',
      });
    } finally {
      await pdns.start();
    }
    expect(await settled(ip.id, 'published')).toMatchObject({
      rdns: 'after.example.com',
      rdns_failure: null,
    });
    expect(await pdns.resolvePtr(ip.address)).toEqual(['after.example.com']);
  });

  it('a resync pushes every record again and removes the ones the panel no longer has', async () => {
    const kept = await address(4);
    await client('PATCH', rdnsPath(kept.id), { rdns: 'kept.example.com' });
    await settled(kept.id, 'published');
    // Records the panel does not have: an address no row holds, and one of the panel's without a name.
    const unnamed = await address(4);
    const foreign = pool4.replace(/0\/24$/, '250');
    const stale = [foreign, unnamed.address].map((a) => ({
      name: ptrName(a),
      type: 'PTR',
      ttl: 60,
      changetype: 'REPLACE',
      records: [{ content: 'stale.example.org.', disabled: false }],
    }));
    // The kept record changed behind the panel's back: the resync puts it back.
    stale.push({
      ...stale[0]!,
      name: ptrName(kept.address),
      records: [{ content: 'changed.example.org.', disabled: false }],
    });
    const patched = await fetch(`${pdns.endpoint}/api/v1/servers/localhost/zones/${zone4}`, {
      method: 'PATCH',
      headers: { 'X-API-Key': pdns.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ rrsets: stale }),
    });
    expect(patched.status).toBe(204);
    expect(await pdns.resolvePtr(foreign)).toEqual(['stale.example.org']);

    // Asked twice at once: both begin, and one run per location does the work.
    const [resync, again] = await Promise.all([
      admin('POST', `/locations/${location.id}/rdns/resync`),
      admin('POST', `/locations/${location.id}/rdns/resync`),
    ]);
    expect([resync.status, again.status]).toEqual([202, 202]);
    expect(resync.body.attributes.records).toBeGreaterThanOrEqual(3);
    await eventually(
      async () => (await pdns.resolvePtr(foreign)).length === 0,
      30_000,
      'the foreign PTR removed',
    );
    await eventually(
      async () => (await pdns.resolvePtr(unnamed.address)).length === 0,
      30_000,
      'the stale PTR removed',
    );
    expect(await settled(kept.id, 'published')).toMatchObject({ rdns: 'kept.example.com' });
    expect(await pdns.resolvePtr(kept.address)).toEqual(['kept.example.com']);

    // The API key went to PowerDNS only: not into the publishing workflow's history.
    const history = await t.temporal.workflow.getHandle(reverseDnsWorkflowId(location.id)).fetchHistory();
    expect(JSON.stringify(history)).not.toContain(pdns.apiKey);
  });

  it('a location without a DNS provider keeps the name unpublished, and has nothing to resync', async () => {
    const bare = await seed.location(t.db);
    const pool = await seed.uniqueIpv4Pool(t.db, bare.id);
    const instance = await seed.instance(t.db, { userId: t.client.id, locationId: bare.id });
    const ip = await allocateAddress(t.db, {
      locationId: bare.id,
      family: 4,
      instanceId: instance.id,
      userId: t.client.id,
      role: 'additional',
    });
    expect(pool.id).toBeDefined();
    const set = await client('PATCH', `/${instance.id}/network/ips/${ip!.id}/rdns`, {
      rdns: 'kept.example.com',
    });
    expect(set.body.attributes).toMatchObject({
      rdns: 'kept.example.com',
      rdns_status: null,
      rdns_failure: null,
    });
    const resync = await admin('POST', `/locations/${bare.id}/rdns/resync`);
    expect(resync.status).toBe(409);
    expect((await admin('POST', `/locations/${randomUUID()}/rdns/resync`)).status).toBe(404);
  });
});

describe.runIf(installed)('a DNS server that answers garbage or refuses', () => {
  let fake: Server;
  let mode: 'garbage' | 'refuse' | 'hang' = 'garbage';
  let base: string;
  beforeAll(async () => {
    // Not PowerDNS: a server on a loopback port that answers every call the same bad way.
    fake = createServer((req, res) => {
      req.resume();
      if (mode === 'hang') return; // Never answers: the call's time limit ends it.
      if (mode === 'refuse') {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: `you sent ${req.headers['x-api-key']}` }));
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('<html>not an API</html>');
      }
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        fake.closeAllConnections();
        fake.close(() => resolve());
      }),
  );

  it('is a clear failed state with the reason, never the server’s body', async () => {
    const provider = await admin('POST', '/providers', {
      name: `bad-dns-${randomUUID().slice(0, 8)}`,
      kind: 'dns',
      endpoint: base,
    });
    expect(provider.body.attributes.dns_zones).toEqual([]);
    const key = `key-${randomUUID()}`;
    await admin('PUT', `/providers/${provider.body.attributes.uuid}/credential`, { credential: key });
    const loc = await admin('POST', '/locations', {
      code: `bad-${randomUUID().slice(0, 6)}`,
      name: 'Bad DNS',
      dns_provider: provider.body.attributes.uuid,
    });
    expect(loc.status).toBe(201);
    const pool = await seed.uniqueIpv4Pool(t.db, loc.body.attributes.uuid);
    const zone = zoneOfPool(pool.cidr);
    const zoned = await admin('PATCH', `/providers/${provider.body.attributes.uuid}`, { dns_zones: [zone] });
    expect(zoned.body.attributes.dns_zones).toEqual([zone]);
    const instance = await seed.instance(t.db, { userId: t.client.id, locationId: loc.body.attributes.uuid });
    const ip = await allocateAddress(t.db, {
      locationId: loc.body.attributes.uuid,
      family: 4,
      instanceId: instance.id,
      userId: t.client.id,
      role: 'additional',
    });
    const record = async () =>
      (await client('GET', `/${instance.id}/network/ips?per_page=100`)).body.data
        .map((a: Body) => a.attributes)
        .find((a: Body) => a.uuid === ip!.id);

    await client('PATCH', `/${instance.id}/network/ips/${ip!.id}/rdns`, { rdns: 'x.example.com' });
    const garbage = await eventually(async () => {
      const r = await record();
      return r.rdns_status === 'failed' && r;
    });
    expect(garbage).toMatchObject({ rdns_failure: 'bad_answer' });

    mode = 'refuse';
    await client('PATCH', `/${instance.id}/network/ips/${ip!.id}/rdns`, { rdns: 'y.example.com' });
    const refused = await eventually(async () => {
      const r = await record();
      return r.rdns_status === 'failed' && r.rdns === 'y.example.com' && r;
    });
    expect(refused).toMatchObject({
      rdns_failure: 'rejected',
      rdns_failure_detail: 'The DNS server refused the change (HTTP 500).',
    });
    expect(JSON.stringify(refused)).not.toContain(key);

    // A server that takes the connection and never answers: unreachable once the 10 s limit passes.
    mode = 'hang';
    await client('PATCH', `/${instance.id}/network/ips/${ip!.id}/rdns`, { rdns: 'z.example.com' });
    const timedOut = await eventually(
      async () => {
        const r = await record();
        return r.rdns_status === 'failed' && r.rdns === 'z.example.com' && r;
      },
      45_000,
      'the hung call to fail',
    );
    expect(timedOut).toMatchObject({ rdns_failure: 'unreachable' });
  });
});

describe.runIf(installed)('DNS providers and locations of the Application API', () => {
  it('are tested, synced and rotated against PowerDNS itself, with the key as X-API-Key', async () => {
    const made = await admin('POST', '/providers', {
      name: `pdns-checks-${randomUUID().slice(0, 8)}`,
      kind: 'dns',
      endpoint: pdns.endpoint,
      dns_zones: [zone4],
    });
    const id = made.body.attributes.uuid;
    const run = async (path: string, body?: unknown) => {
      const begun = await admin('POST', `/providers/${id}${path}`, body);
      expect(begun.status).toBe(202);
      return eventually(async () => {
        const shown = (await admin('GET', `/providers/${id}/runs/${begun.body.attributes.uuid}`)).body
          .attributes;
        return shown.status !== 'running' && shown;
      });
    };
    expect(await run('/credential/rotate', { credential: 'not-the-key' })).toMatchObject({
      status: 'failed',
      result: 'unauthorized',
    });
    expect(await run('/credential/rotate', { credential: pdns.apiKey })).toMatchObject({
      status: 'succeeded',
      result: 'ok',
    });
    expect(await run('/test')).toMatchObject({ result: 'ok', http_status: 200 });
    // Its inventory is the server's zones: the two this file made.
    expect(await run('/sync')).toMatchObject({ result: 'ok', items: 2 });
  });

  it('refuse zones that are not reverse zones, zones on other kinds, and a location’s non-DNS provider', async () => {
    const name = () => `p-${randomUUID().slice(0, 8)}`;
    const refusals = [
      { name: name(), kind: 'dns', endpoint: pdns.endpoint, dns_zones: ['example.com.'] },
      { name: name(), kind: 'dns', endpoint: pdns.endpoint, dns_zones: ['bad_label.in-addr.arpa.'] },
      { name: name(), kind: 'storage', endpoint: pdns.endpoint, dns_zones: [zone4] },
    ];
    for (const body of refusals) {
      const refused = await admin('POST', '/providers', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      // The zod rule names the item (`dns_zones.0`), the zone rule the list.
      expect(refused.body.errors[0].source.field).toMatch(/^dns_zones(\.0)?$/);
    }
    const storage = await admin('POST', '/providers', {
      name: name(),
      kind: 'storage',
      endpoint: pdns.endpoint,
    });
    for (const dns_provider of [storage.body.attributes.uuid, randomUUID(), 'nope']) {
      const refused = await admin('PATCH', `/locations/${location.id}`, { dns_provider });
      expect(refused.status).toBe(400);
    }
    // The location still names its provider, which cannot be deleted while it does.
    const shown = await admin('GET', `/locations/${location.id}`);
    const held = await admin('DELETE', `/providers/${shown.body.attributes.dns_provider}`);
    expect(held.status).toBe(409);
    expect(held.body.errors[0].detail).toBe('The provider has 1 dependent location.');
    // Customers see locations without their DNS provider.
    const theirs = (await client('GET', '/locations')).body.data.find(
      (l: Body) => l.attributes.uuid === location.id,
    );
    expect(theirs.attributes).not.toHaveProperty('dns_provider');
  });
});
