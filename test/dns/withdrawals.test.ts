import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReverseDnsActivities } from '../../activities/reverse-dns.js';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import { ptrName } from '../../domain/dns/reverse-zones.js';
import { wakeStaleReverseDns } from '../../services/networks/reverse-dns-sweep.js';
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
import { type Stack, startStack } from '../support/stack.js';

/**
 * The PTR deletions of released addresses as an administrator sees them (pending, failed with the
 * reason, gone once done), against a real PowerDNS read back with DNS queries. Addresses are
 * released behind the workflows' back (the trigger records the withdrawal, nothing wakes the
 * publisher), as a lost wake leaves them.
 */
let t: Stack;
let pdns: PowerDns;
let location: { id: string; code: string };
let instanceId: string;

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

const installed = powerDnsPresent();

beforeAll(async () => {
  if (!installed) return;
  pdns = await startPowerDns();
  // An hour: every file of the run shares one database, and none of theirs is that old.
  t = await startStack({
    worker: true,
    config: { PROVIDER_ALLOW_HTTP: 'true', RDNS_SWEEP_AFTER_MS: '3600000' },
  });
  const loc = await seed.location(t.db);
  const pool = await seed.uniqueIpv4Pool(t.db, loc.id);
  const zone = zoneOfPool(pool.cidr);
  await pdns.createZone(zone);
  await serveLocation(admin, loc.id, powerDnsApi(pdns, [zone]));
  location = { id: loc.id, code: loc.code };
  instanceId = (await seed.instance(t.db, { userId: t.client.id, locationId: loc.id })).id;
});
afterAll(async () => {
  await t?.close();
  await pdns?.close();
});

/** An address of the instance, named through the Application API and answering from the server. */
async function namedAddress(name: string): Promise<{ id: string; address: string }> {
  const taken = await allocateAddress(t.db, {
    locationId: location.id,
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

const answers = (address: string, names: string[]) => ptrAnswers(pdns, address, names);

/** Released with no wake: the withdrawal waits. */
const releasedUnannounced = (addressId: string) =>
  t.db.deleteFrom('ip_addresses').where('id', '=', addressId).execute();

const withdrawals = async (): Promise<Body[]> => {
  const res = await admin('GET', `/locations/${location.id}/rdns/withdrawals?per_page=100`);
  expect(res.status).toBe(200);
  return res.body.data.map((w: Body) => w.attributes);
};

describe.runIf(installed)('a location’s PTR deletions not yet done', () => {
  it('are listed pending, then failed with the reason, and are gone once the server took them; twice', async () => {
    const { publishReverseRecords } = createReverseDnsActivities(t.db, t.config.SECRETS_KEY);
    for (const round of [1, 2]) {
      // Two at once; the second round releases the same addresses again.
      const pair = [
        await namedAddress(`a-${round}.example.com`),
        await namedAddress(`b-${round}.example.com`),
      ];
      for (const a of pair) await releasedUnannounced(a.id);
      const pending = await withdrawals();
      expect(pending).toHaveLength(2);
      for (const [i, a] of pair.entries())
        expect(pending[i]).toMatchObject({
          address: a.address,
          name: ptrName(a.address),
          status: 'pending',
          failure: null,
          failure_detail: null,
          checked_at: null,
        });
      for (const a of pair)
        expect(await pdns.resolvePtr(a.address)).toEqual([
          `${a === pair[0] ? 'a' : 'b'}-${round}.example.com`,
        ]);

      await pdns.stop();
      await expect(publishReverseRecords(location.id)).rejects.toThrow(/not published \(unreachable\)/);
      await pdns.start();
      const failed = await withdrawals();
      expect(failed.map((w) => [w.address, w.status, w.failure])).toEqual(
        pair.map((a) => [a.address, 'failed', 'unreachable']),
      );
      expect(failed[0].failure_detail).toBe('The DNS server did not answer (refused, reset or timed out).');
      expect(failed[0].checked_at).not.toBeNull();

      expect(await publishReverseRecords(location.id)).toEqual({ published: 2, failed: 0, skipped: 0 });
      expect(await withdrawals()).toEqual([]);
      for (const a of pair) expect(await pdns.resolvePtr(a.address)).toEqual([]);
    }
  });

  it('left pending by a lost wake are published by the sweep once older than its bound; twice', async () => {
    for (const round of [1, 2]) {
      // Two at once; the second round releases the same addresses again.
      const pair = [
        await namedAddress(`c-${round}.example.com`),
        await namedAddress(`d-${round}.example.com`),
      ];
      for (const a of pair) await releasedUnannounced(a.id);
      // Younger than the bound: a run may yet answer them, so the sweep leaves them.
      expect(await wakeStaleReverseDns(t.deps)).not.toContain(location.id);
      expect((await withdrawals()).map((w) => w.status)).toEqual(['pending', 'pending']);

      await t.db
        .updateTable('rdns_withdrawals')
        .set({ requested_at: sql`requested_at - interval '2 hours'` })
        .where('location_id', '=', location.id)
        .execute();
      expect(await wakeStaleReverseDns(t.deps)).toContain(location.id);
      for (const a of pair) await answers(a.address, []);
      await eventually(async () => (await withdrawals()).length === 0, 30_000, 'no withdrawal left');
    }
  });

  it('answers 404 for a location that does not exist, and needs the administrator’s key', async () => {
    expect((await admin('GET', `/locations/${randomUUID()}/rdns/withdrawals`)).status).toBe(404);
    const customer = await t.call(
      t.client,
      'GET',
      `/api/application/cloudsvc/locations/${location.id}/rdns/withdrawals`,
    );
    expect([401, 403]).toContain(customer.status);
  });
});
