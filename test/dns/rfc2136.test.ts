import { randomBytes, randomUUID } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import { reverseDnsWorkflowId } from '../../domain/workflow-ids.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { type PowerDns, startPowerDns } from '../support/powerdns.js';
import { powerDnsPresent, rfc2136Server, serveLocation, zoneOfPool } from '../support/powerdns-setup.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Reverse DNS published by RFC 2136 dynamic updates signed with TSIG (RFC 8945), to a real PowerDNS
 * started here with `dnsupdate=yes` and the key in its database, driven through the Client and
 * Application APIs with a real worker, and read back with DNS queries to that server.
 */
let t: Stack;
let pdns: PowerDns;
let providerId: string;
let credential: string;
let instanceId: string;
let locationId: string;

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);
const client = (method: string, path: string, body?: unknown) =>
  t.call(t.client, method, `/api/client/cloud${path}`, body);

const installed = powerDnsPresent();

/** A location whose provider is `endpoint` (RFC 2136), one zone for its pool, and an instance in it. */
async function locationServedBy(endpoint: string, zoneOnServer: (zone: string) => Promise<string>) {
  const loc = await seed.location(t.db);
  const pool = await seed.uniqueIpv4Pool(t.db, loc.id);
  const zone = zoneOfPool(pool.cidr);
  const secret = await zoneOnServer(zone);
  const order = rfc2136Server(endpoint, [zone], secret);
  const { provider, made, keyed } = await serveLocation(admin, loc.id, order);
  expect(made.body.attributes).toMatchObject({ dns_protocol: 'rfc2136', endpoint, credential_set: false });
  expect(JSON.stringify(keyed.body)).not.toContain(secret);
  const instance = await seed.instance(t.db, { userId: t.client.id, locationId: loc.id });
  return { locationId: loc.id, providerId: provider, key: order.credential, secret, instanceId: instance.id };
}

async function address(inLocation = locationId, ofInstance = instanceId) {
  const taken = await allocateAddress(t.db, {
    locationId: inLocation,
    family: 4,
    instanceId: ofInstance,
    userId: t.client.id,
    role: 'additional',
  });
  if (!taken) throw new Error('pool full');
  return taken;
}

/** The address as the customer sees it once its record is no longer pending (and in `status`). */
async function settled(ofInstance: string, addressId: string, status?: string): Promise<Body> {
  return eventually(
    async () => {
      const listed = (await client('GET', `/${ofInstance}/network/ips?per_page=100`)).body.data as Body[];
      const found = listed.map((a) => a.attributes).find((a) => a.uuid === addressId);
      if (!found || found.rdns_status === 'pending') return undefined;
      return status === undefined || found.rdns_status === status ? found : undefined;
    },
    45_000,
    `the record of ${addressId} to settle${status ? ` ${status}` : ''}`,
  );
}

const rdns = (ofInstance: string, addressId: string, name: string | null) =>
  client('PATCH', `/${ofInstance}/network/ips/${addressId}/rdns`, { rdns: name });

beforeAll(async () => {
  if (!installed) return;
  pdns = await startPowerDns({ dnsUpdate: true });
  t = await startStack({ worker: true, config: { PROVIDER_ALLOW_HTTP: 'true' } });
  const made = await locationServedBy(`dns://127.0.0.1:${pdns.dnsPort}`, async (zone) => {
    await pdns.createZone(zone);
    return pdns.allowUpdates(zone, 'panel-key');
  });
  ({ providerId, instanceId, locationId } = made);
  credential = made.key;
});
afterAll(async () => {
  await t?.close();
  await pdns?.close();
});

describe.runIf(installed)('reverse DNS published by RFC 2136 updates signed with TSIG', () => {
  it('a PTR set, changed twice in a row and cleared answers from the DNS server', async () => {
    const ip = await address();
    expect((await rdns(instanceId, ip.id, 'mail.example.com')).status).toBe(200);
    expect(await settled(instanceId, ip.id)).toMatchObject({ rdns_status: 'published', rdns_failure: null });
    expect(await pdns.resolvePtr(ip.address)).toEqual(['mail.example.com']);

    const answers = [
      await rdns(instanceId, ip.id, 'first.example.com'),
      await rdns(instanceId, ip.id, 'second.example.com'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await settled(instanceId, ip.id)).toMatchObject({
      rdns: 'second.example.com',
      rdns_status: 'published',
    });
    expect(await pdns.resolvePtr(ip.address)).toEqual(['second.example.com']);

    await rdns(instanceId, ip.id, null);
    expect(await settled(instanceId, ip.id)).toMatchObject({ rdns: null, rdns_status: 'published' });
    expect(await pdns.resolvePtr(ip.address)).toEqual([]);
  });

  it('two addresses at once each get their own record, and the key stays out of the history', async () => {
    const [a, b] = [await address(), await address()];
    const answered = await Promise.all([
      rdns(instanceId, a.id, 'a.example.com'),
      rdns(instanceId, b.id, 'b.example.com'),
    ]);
    expect(answered.map((r) => r.status)).toEqual([200, 200]);
    await Promise.all([settled(instanceId, a.id, 'published'), settled(instanceId, b.id, 'published')]);
    expect(await pdns.resolvePtr(a.address)).toEqual(['a.example.com']);
    expect(await pdns.resolvePtr(b.address)).toEqual(['b.example.com']);
    const history = await t.temporal.workflow.getHandle(reverseDnsWorkflowId(locationId)).fetchHistory();
    expect(JSON.stringify(history)).not.toContain(credential.split(':')[2]);
  });

  it('a wrong TSIG key is failed (unauthorized) and the server keeps what it served', async () => {
    const ip = await address();
    await rdns(instanceId, ip.id, 'kept.example.com');
    await settled(instanceId, ip.id, 'published');
    const wrong = `hmac-sha256:panel-key:${randomBytes(32).toString('base64')}`;
    await admin('PUT', `/providers/${providerId}/credential`, { credential: wrong });
    try {
      await rdns(instanceId, ip.id, 'unsigned.example.com');
      expect(await settled(instanceId, ip.id, 'failed')).toMatchObject({
        rdns: 'unsigned.example.com',
        rdns_failure: 'unauthorized',
        rdns_failure_detail: 'The DNS server refused the provider’s credential.',
      });
      expect(await pdns.resolvePtr(ip.address)).toEqual(['kept.example.com']);
    } finally {
      await admin('PUT', `/providers/${providerId}/credential`, { credential });
    }
    // The right key back: the next change publishes.
    await rdns(instanceId, ip.id, 'back.example.com');
    expect(await settled(instanceId, ip.id, 'published')).toMatchObject({ rdns: 'back.example.com' });
    expect(await pdns.resolvePtr(ip.address)).toEqual(['back.example.com']);
  });

  it('the provider’s test, sync and rotation sign a query with the key', async () => {
    const run = async (path: string, body?: unknown) => {
      const begun = await admin('POST', `/providers/${providerId}${path}`, body);
      expect(begun.status).toBe(202);
      return eventually(async () => {
        const shown = (await admin('GET', `/providers/${providerId}/runs/${begun.body.attributes.uuid}`)).body
          .attributes;
        return shown.status !== 'running' && shown;
      });
    };
    expect(await run('/test')).toMatchObject({ result: 'ok', http_status: null });
    expect(await run('/sync')).toMatchObject({ result: 'ok', items: 1 });
    const wrong = `hmac-sha256:panel-key:${randomBytes(32).toString('base64')}`;
    expect(await run('/credential/rotate', { credential: wrong })).toMatchObject({ result: 'unauthorized' });
    expect(await run('/credential/rotate', { credential })).toMatchObject({ result: 'ok' });
  });

  it('refuses an endpoint, a credential or a protocol that does not fit, and changes nothing', async () => {
    const name = () => `p-${randomUUID().slice(0, 8)}`;
    for (const [body, field] of [
      [{ name: name(), kind: 'dns', dns_protocol: 'rfc2136', endpoint: pdns.endpoint }, 'endpoint'],
      [
        { name: name(), kind: 'dns', dns_protocol: 'rfc2136', endpoint: 'dns://user:pw@127.0.0.1' },
        'endpoint',
      ],
      [{ name: name(), kind: 'dns', endpoint: 'dns://127.0.0.1:53' }, 'endpoint'],
      [{ name: name(), kind: 'storage', dns_protocol: 'rfc2136', endpoint: pdns.endpoint }, 'dns_protocol'],
      [{ name: name(), kind: 'dns', dns_protocol: 'bind', endpoint: 'dns://127.0.0.1' }, 'dns_protocol'],
    ] as const) {
      const refused = await admin('POST', '/providers', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors[0].source.field).toBe(field);
    }
    for (const bad of [
      'just-a-secret',
      'hmac-md5:panel-key:c2VjcmV0c2VjcmV0c2VjcmV0',
      'panel-key:not base64!',
      'k:c2hvcnQ=',
    ]) {
      const refused = await admin('PUT', `/providers/${providerId}/credential`, { credential: bad });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.errors[0].source.field).toBe('credential');
      expect(JSON.stringify(refused.body)).not.toContain(bad);
    }
    // The key in force is still the one that works.
    const ip = await address();
    await rdns(instanceId, ip.id, 'still.example.com');
    expect(await settled(instanceId, ip.id, 'published')).toMatchObject({ rdns: 'still.example.com' });
  });
});

describe.runIf(installed)('an RFC 2136 server that answers garbage, forges, refuses or never answers', () => {
  let fake: Socket;
  let mode: 'garbage' | 'forged' | 'refused' | 'silent' = 'garbage';
  beforeAll(async () => {
    // Not a DNS server: a UDP socket on loopback that answers every message the same bad way.
    fake = createSocket('udp4');
    fake.on('message', (message, from) => {
      if (mode === 'silent' || message.length < 12) return;
      const answer = Buffer.from(message.subarray(0, 12));
      answer.writeUInt16BE(((message.readUInt16BE(2) | 0x8000) & 0xfff0) | (mode === 'refused' ? 5 : 0), 2);
      answer.writeUInt16BE(0, 10);
      // `forged`: a NOERROR with no signature, as anyone on the path could send.
      const sent = mode === 'garbage' ? Buffer.concat([message.subarray(0, 2), randomBytes(40)]) : answer;
      fake.send(sent, from.port, from.address);
    });
    await new Promise<void>((resolve) => fake.bind(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  it('is a clear failed state with the reason each time', async () => {
    const port = (fake.address() as AddressInfo).port;
    const bad = await locationServedBy(`dns://127.0.0.1:${port}`, async () =>
      randomBytes(32).toString('base64'),
    );
    const ip = await address(bad.locationId, bad.instanceId);
    const expectations = [
      ['garbage', 'bad_answer'],
      ['forged', 'bad_answer'],
      ['refused', 'unauthorized'],
      ['silent', 'unreachable'],
    ] as const;
    for (const [i, [how, failure]] of expectations.entries()) {
      mode = how;
      await rdns(bad.instanceId, ip.id, `try-${i}.example.com`);
      const failed = await eventually(
        async () => {
          const r = await settled(bad.instanceId, ip.id, 'failed');
          return r.rdns === `try-${i}.example.com` && r;
        },
        45_000,
        `the ${how} answer to fail`,
      );
      expect(failed, how).toMatchObject({ rdns_failure: failure });
    }
  });
});
