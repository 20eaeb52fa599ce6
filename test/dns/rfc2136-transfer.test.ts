import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import { ptrName } from '../../domain/dns/reverse-zones.js';
import { eventually } from '../support/eventually.js';
import { type PowerDns, startPowerDns } from '../support/powerdns.js';
import {
  powerDnsPresent,
  ptrAnswers,
  rfc2136Server,
  serveLocation,
  zoneOfPool,
} from '../support/powerdns-setup.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A resync of an `rfc2136` provider's zone lists it by a zone transfer (AXFR over TCP, signed with
 * the provider's TSIG key) from a real PowerDNS that allows transfers to loopback for that key, and
 * deletes the PTR records there that the panel has no name for; read back with DNS queries.
 */
let t: Stack;
let pdns: PowerDns;
let zone: string;
let prefix: string;
let locationId: string;
let instanceId: string;

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

const installed = powerDnsPresent();

beforeAll(async () => {
  if (!installed) return;
  pdns = await startPowerDns({ dnsUpdate: true, transfers: true });
  t = await startStack({ worker: true, config: { PROVIDER_ALLOW_HTTP: 'true' } });
  const loc = await seed.location(t.db);
  const pool = await seed.uniqueIpv4Pool(t.db, loc.id);
  prefix = pool.cidr.replace(/0\/24$/, '');
  zone = zoneOfPool(pool.cidr);
  await pdns.createZone(zone);
  const secret = await pdns.allowUpdates(zone, 'panel-key');
  await pdns.setMeta(zone, 'TSIG-ALLOW-AXFR', ['panel-key']);
  await serveLocation(admin, loc.id, rfc2136Server(`dns://127.0.0.1:${pdns.dnsPort}`, [zone], secret));
  locationId = loc.id;
  instanceId = (await seed.instance(t.db, { userId: t.client.id, locationId }).then((i) => i)).id;
});
afterAll(async () => {
  await t?.close();
  await pdns?.close();
});

const answers = (address: string, names: string[]) => ptrAnswers(pdns, address, names, 45_000);

/** An address of the instance, named through the Application API and answering from the server. */
async function namedAddress(name: string) {
  const taken = await allocateAddress(t.db, {
    locationId,
    family: 4,
    instanceId,
    userId: t.client.id,
    role: 'additional',
  });
  if (!taken) throw new Error('pool full');
  expect((await admin('PUT', `/rdns/${taken.id}`, { rdns: name })).status).toBe(200);
  await answers(taken.address, [name]);
  return taken;
}

const resyncState = async () => {
  const res = await admin('GET', `/locations/${locationId}/rdns/resync`);
  expect(res.status).toBe(200);
  return res.body.attributes;
};
const settledResync = () =>
  eventually(
    async () => {
      const state = await resyncState();
      return state.prune !== 'pending' ? state : undefined;
    },
    45_000,
    'the resync to settle',
  );

/** PTR records made behind the panel's back, for addresses it holds no name for. */
async function strays(): Promise<string[]> {
  const addresses = [`${prefix}250`, `${prefix}251`];
  for (const a of addresses) await pdns.putPtr(zone, ptrName(a), 'stray.example.net.');
  for (const a of addresses) await answers(a, ['stray.example.net']);
  return addresses;
}

describe.runIf(installed)('a resync of an rfc2136 zone', () => {
  it('lists the zone by a signed transfer and deletes the PTRs the panel does not hold; twice, and two at once', async () => {
    const kept = await namedAddress('kept.example.com');
    // Not a full address's owner name: never touched.
    await pdns.putPtr(zone, `sub.${zone}`, 'delegated.example.net.');

    expect((await resyncState()).prune).toBeNull();
    const first = await strays();
    expect((await admin('POST', `/locations/${locationId}/rdns/resync`)).status).toBe(202);
    expect(await settledResync()).toMatchObject({ prune: 'done', failure: null, removed: 2 });
    for (const a of first) await answers(a, []);
    await answers(kept.address, ['kept.example.com']);

    const second = await strays();
    const both = await Promise.all([
      admin('POST', `/locations/${locationId}/rdns/resync`),
      admin('POST', `/locations/${locationId}/rdns/resync`),
    ]);
    expect(both.map((r) => r.status)).toEqual([202, 202]);
    for (const a of second) await answers(a, []);
    await answers(kept.address, ['kept.example.com']);
    const { listPtrRecordsOf } = await transferAsTheDriverDoes();
    const listed = await listPtrRecordsOf();
    expect(listed).toEqual({
      ok: true,
      ptrs: new Map([
        [ptrName(kept.address), ['kept.example.com.']],
        [`sub.${zone}`, ['delegated.example.net.']],
      ]),
    });
  });

  it('the last resync of a location that does not exist is 404', async () => {
    expect((await admin('GET', `/locations/${randomUUID()}/rdns/resync`)).status).toBe(404);
  });

  it('a transfer the server refuses is reported, removes nothing, and the held records are still published', async () => {
    const kept = await namedAddress('held.example.com');
    await pdns.setMeta(zone, 'TSIG-ALLOW-AXFR', ['another-key']);
    const stray = (await strays())[0]!;
    // Changed behind the panel's back: the resync puts it back even though it cannot list the zone.
    await pdns.putPtr(zone, ptrName(kept.address), 'wrong.example.net.');
    await answers(kept.address, ['wrong.example.net']);
    expect((await admin('POST', `/locations/${locationId}/rdns/resync`)).status).toBe(202);
    const state = await settledResync();
    // PowerDNS refuses a transfer its TSIG-ALLOW-AXFR does not allow with an unsigned answer, as it
    // answers an unknown key: the panel cannot tell the two apart, and says the key was not taken.
    expect(state).toMatchObject({ prune: 'failed', failure: 'unauthorized', removed: 0 });
    expect(state.failure_detail).toBe('The DNS server refused the provider’s credential.');
    await answers(kept.address, ['held.example.com']);
    expect(await pdns.resolvePtr(stray)).toEqual(['stray.example.net']);

    // Allowed again, the next resync removes the strays and says so.
    await pdns.setMeta(zone, 'TSIG-ALLOW-AXFR', ['panel-key']);
    expect((await admin('POST', `/locations/${locationId}/rdns/resync`)).status).toBe(202);
    expect(await settledResync()).toMatchObject({ prune: 'done', failure: null, removed: 2 });
    await answers(stray, []);
    await answers(kept.address, ['held.example.com']);
  });
});

/** The location's zone listed through the driver its provider calls for. */
async function transferAsTheDriverDoes() {
  const { dnsTargetOf } = await import('../../db/repositories/network/reverse-dns-publishing.js');
  const { driverFor } = await import('../../activities/dns/drivers.js');
  const { secretBox } = await import('../../platform/secrets.js');
  const target = (await dnsTargetOf(t.db, locationId))!;
  const chosen = driverFor({
    protocol: target.dns_protocol,
    endpoint: target.endpoint,
    credential: secretBox(t.config.SECRETS_KEY).open(target.credential_sealed!),
  });
  if (!('driver' in chosen)) throw new Error('no driver');
  return { listPtrRecordsOf: () => chosen.driver.listPtrRecords(zone) };
}
