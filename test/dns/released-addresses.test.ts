import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReverseDnsActivities } from '../../activities/reverse-dns.js';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import { unpublishedRecordsOf } from '../../db/repositories/network/reverse-dns-publishing.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { type PowerDns, startPowerDns } from '../support/powerdns.js';
import {
  powerDnsApi,
  powerDnsPresent,
  ptrAnswers,
  serveLocation,
  zoneOfPool,
} from '../support/powerdns-setup.js';
import { seed } from '../support/seed.js';

/**
 * An address that leaves the panel takes its PTR record with it: an instance deleted, an address
 * detached, a floating IP given back, each through the APIs with real (in-process) agents and a
 * real worker, and the record read back from a real PowerDNS with DNS queries, as a resolver would.
 */
let t: BackupStack;
let pdns: PowerDns;

const admin = (method: string, path: string, body?: unknown) =>
  t.env.call(t.env.admin, method, `/api/application/cloudsvc${path}`, body);

const installed = powerDnsPresent();

beforeAll(async () => {
  if (!installed) return;
  pdns = await startPowerDns();
  t = await startBackupStack({ PROVIDER_ALLOW_HTTP: 'true', MAX_ADDRESSES_PER_INSTANCE: '4' });
  const zone = zoneOfPool(t.pool.cidr);
  await pdns.createZone(zone);
  await serveLocation(admin, t.location.id, powerDnsApi(pdns, [zone]));
});
afterAll(async () => {
  await t?.close();
  await pdns?.close();
});

const addressesOf = async (instanceId: string): Promise<Body[]> =>
  (await t.api('GET', `/${instanceId}/network/ips?per_page=100`)).body.data.map((a: Body) => a.attributes);

/** Names the address through the Client API and waits until the DNS server answers with it. */
async function named(instanceId: string, address: Body, name: string): Promise<void> {
  const set = await t.api('PATCH', `/${instanceId}/network/ips/${address.uuid}/rdns`, { rdns: name });
  expect(set.status).toBe(200);
  await answers(address.address, [name]);
}

/** Waits until the DNS server answers the address's PTR query with `names` ([] for none). */
const answers = (address: string, names: string[]) => ptrAnswers(pdns, address, names);

/** No withdrawal is left waiting: each one the server took is gone. */
const noWithdrawalsLeft = () =>
  eventually(
    async () =>
      (
        await t.env.db
          .selectFrom('rdns_withdrawals')
          .select('id')
          .where('location_id', '=', t.location.id)
          .execute()
      ).length === 0,
    30_000,
    'no withdrawal left',
  );

/** A running instance with one more address, both named and answering from the DNS server. */
async function namedInstance(label: string): Promise<{ id: string; addresses: Body[] }> {
  const { id } = await t.instance();
  expect((await t.api('POST', `/${id}/network/ips`, { family: 4 })).status).toBe(202);
  await t.settled(id);
  const addresses = await addressesOf(id);
  expect(addresses).toHaveLength(2);
  for (const [i, a] of addresses.entries()) await named(id, a, `${label}-${i}.example.com`);
  return { id, addresses };
}

async function deleted(instanceId: string): Promise<void> {
  const res = await t.api('DELETE', `/${instanceId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
}

describe.runIf(installed)('a released address’s PTR record', () => {
  it('goes when its instance is deleted; again for the address handed to the next instance', async () => {
    const first = await namedInstance('gone');
    await deleted(first.id);
    for (const a of first.addresses) await answers(a.address, []);
    await noWithdrawalsLeft();
    // The same delete asked again: the instance is gone, nothing else changes.
    expect((await t.api('DELETE', `/${first.id}`)).status).toBe(404);

    // The pool hands out its lowest free address: the next instance gets the same ones back, with
    // no name, and they answer nothing until named; deleted again, their new records go too.
    const second = await namedInstance('again');
    expect(second.addresses.map((a) => a.address).sort()).toEqual(
      first.addresses.map((a) => a.address).sort(),
    );
    await deleted(second.id);
    for (const a of second.addresses) await answers(a.address, []);
    await noWithdrawalsLeft();
  });

  it('goes for two instances deleted at once', async () => {
    const [a, b] = [await namedInstance('left'), await namedInstance('right')];
    await Promise.all([deleted(a.id), deleted(b.id)]);
    for (const address of [...a.addresses, ...b.addresses]) await answers(address.address, []);
    await noWithdrawalsLeft();
  });

  it('goes when the address is detached, twice in a row and two at once', async () => {
    const { id, addresses } = await namedInstance('detach');
    const extra = addresses.find((a) => !a.primary)!;
    expect((await t.api('DELETE', `/${id}/network/ips/${extra.uuid}`)).status).toBe(202);
    await t.settled(id);
    await answers(extra.address, []);
    // The primary keeps its record.
    expect(await pdns.resolvePtr(addresses.find((a) => a.primary)!.address)).toEqual([
      'detach-0.example.com',
    ]);
    expect((await t.api('DELETE', `/${id}/network/ips/${extra.uuid}`)).status).toBe(404);

    // Two more on two instances, detached at once.
    const others = [await namedInstance('pair-a'), await namedInstance('pair-b')];
    const extras = others.map((o) => ({ id: o.id, address: o.addresses.find((a) => !a.primary)! }));
    const answered = await Promise.all(
      extras.map((e) => t.api('DELETE', `/${e.id}/network/ips/${e.address.uuid}`)),
    );
    expect(answered.map((r) => r.status)).toEqual([202, 202]);
    for (const e of extras) await answers(e.address.address, []);
    await noWithdrawalsLeft();
  });

  it('goes when a floating IP is given back, twice in a row and two at once', async () => {
    const give = async () => {
      const res = await admin('POST', '/floating-ips', { user: t.env.client.id, location: t.location.code });
      expect(res.status).toBe(201);
      const ip: Body = res.body.attributes;
      expect(
        (await admin('PUT', `/rdns/${ip.uuid}`, { rdns: `float-${ip.uuid.slice(0, 8)}.example.com` })).status,
      ).toBe(200);
      await answers(ip.address, [`float-${ip.uuid.slice(0, 8)}.example.com`]);
      return ip;
    };
    const ip = await give();
    expect((await admin('DELETE', `/floating-ips/${ip.uuid}`)).status).toBe(204);
    await answers(ip.address, []);
    expect((await admin('DELETE', `/floating-ips/${ip.uuid}`)).status).toBe(404);

    const pair = [await give(), await give()];
    const answered = await Promise.all(pair.map((p) => admin('DELETE', `/floating-ips/${p.uuid}`)));
    expect(answered.map((r) => r.status)).toEqual([204, 204]);
    for (const p of pair) await answers(p.address, []);
    await noWithdrawalsLeft();
  });

  it('an address taken again and named before its withdrawal was published keeps its new name', async () => {
    const { id } = await t.instance();
    const [primary] = await addressesOf(id);
    await named(id, primary!, 'old-holder.example.com');
    // Released behind the workflows' back (the trigger records the withdrawal; nothing wakes the
    // publisher), then handed to another instance and named there: the new name must win.
    await t.env.db.deleteFrom('ip_addresses').where('id', '=', primary!.uuid).execute();
    const other = await seed.instance(t.env.db, { userId: t.env.client.id, locationId: t.location.id });
    const again = await allocateAddress(t.env.db, {
      locationId: t.location.id,
      family: 4,
      instanceId: other.id,
      userId: t.env.client.id,
      role: 'additional',
    });
    expect(again?.address).toBe(primary!.address);
    expect(
      (await t.api('PATCH', `/${other.id}/network/ips/${again!.id}/rdns`, { rdns: 'new-holder.example.com' }))
        .status,
    ).toBe(200);
    await answers(primary!.address, ['new-holder.example.com']);
    await noWithdrawalsLeft();
    // And once the new holder clears it, nothing answers.
    await t.api('PATCH', `/${other.id}/network/ips/${again!.id}/rdns`, { rdns: null });
    await answers(primary!.address, []);
  });

  it('a released address outside the provider’s zones is counted skipped, not published, and its withdrawal dropped', async () => {
    // Once the location's own passes are done, released behind their back: the pass below meets it.
    await eventually(
      async () => (await unpublishedRecordsOf(t.env.db, t.location.id)).length === 0,
      30_000,
      'every record of the location settled',
    );
    const outside = '198.51.100.7';
    await t.env.db
      .insertInto('rdns_withdrawals')
      .values({ location_id: t.location.id, address: outside })
      .execute();
    const { publishReverseRecords } = createReverseDnsActivities(t.env.db, t.env.config.SECRETS_KEY);
    expect(await publishReverseRecords(t.location.id)).toEqual({ published: 0, failed: 0, skipped: 1 });
    await noWithdrawalsLeft();
  });
});
