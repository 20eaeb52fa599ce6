import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import type { Body } from '../support/http.js';

/**
 * The Application API's network groups: every customer's private networks, the reverse DNS
 * records the location's DNS serves, and an instance's firewall, for an administrator.
 */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.env.admin.call(method, `/api/application/cloudsvc${path}`, body);

describe('networks', () => {
  it('lists every customer’s networks with filters, shows one with its NICs, deletes one once empty', async () => {
    const mine = await t.api('POST', '/private-networks', {
      name: 'app',
      location: t.location.code,
      cidr: '10.31.0.0/24',
    });
    const theirs = await t.env.stranger.call('POST', '/api/client/cloud/private-networks', {
      name: 'app',
      location: t.location.code,
      cidr: '10.31.0.0/24',
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    const { id } = await t.instance();
    await t.api('POST', `/private-networks/${mine.body.attributes.uuid}/attach`, { instance: id });
    await t.settled(id);

    const all = (await admin('GET', '/networks?per_page=100')).body.data.map((n: Body) => n.attributes);
    expect(all.map((n: Body) => n.uuid)).toEqual(
      expect.arrayContaining([mine.body.attributes.uuid, theirs.body.attributes.uuid]),
    );
    const filtered = await admin('GET', `/networks?user=${t.env.stranger.id}&location=${t.location.code}`);
    expect(filtered.body.data.map((n: Body) => n.attributes.uuid)).toEqual([theirs.body.attributes.uuid]);
    expect((await admin('GET', '/networks?location=nowhere')).body.meta.pagination.total).toBe(0);

    const shown = await admin('GET', `/networks/${mine.body.attributes.uuid}`);
    expect(shown.body.attributes).toMatchObject({
      user: t.env.client.id,
      nic_count: 1,
      nics: [{ instance: id, address: '10.31.0.1', state: 'attached' }],
    });

    const held = await admin('DELETE', `/networks/${mine.body.attributes.uuid}`);
    expect(held.status).toBe(409);
    expect(held.body.errors[0].code).toBe('SVC-INUSE-409');
    expect((await admin('DELETE', `/networks/${theirs.body.attributes.uuid}`)).status).toBe(204);
    expect((await admin('DELETE', `/networks/${theirs.body.attributes.uuid}`)).status).toBe(404);
    expect((await admin('GET', `/networks/${randomUUID()}`)).status).toBe(404);
    const logged = await t.env.db
      .selectFrom('activity_log')
      .select(['actor', 'user_id'])
      .where('event', '=', 'private_network.deleted')
      .where('user_id', '=', t.env.stranger.id)
      .execute();
    expect(logged).toEqual([{ actor: `admin:${t.env.admin.id}`, user_id: t.env.stranger.id }]);
  });

  it('lists the reverse DNS records and sets or clears any address’s, twice', async () => {
    const { id } = await t.instance();
    const [primary] = (await t.api('GET', `/${id}/network/ips`)).body.data.map((a: Body) => a.attributes);
    await t.api('PATCH', `/${id}/network/ips/${primary.uuid}/rdns`, { rdns: 'Web.Example.com' });

    const records = (await admin(`GET`, `/rdns?user=${t.env.client.id}&per_page=100`)).body.data;
    expect(records.map((r: Body) => r.attributes)).toContainEqual(
      expect.objectContaining({
        uuid: primary.uuid,
        address: primary.address,
        rdns: 'web.example.com',
        instance: id,
        location: t.location.code,
      }),
    );
    for (let i = 0; i < 2; i++) {
      const set = await admin('PUT', `/rdns/${primary.uuid}`, { rdns: 'abuse.provider.example' });
      expect(set.status).toBe(200);
      expect(set.body.attributes).toMatchObject({ rdns: 'abuse.provider.example' });
    }
    const seen = (await t.api('GET', `/${id}/network/ips`)).body.data[0].attributes;
    expect(seen.rdns).toBe('abuse.provider.example');
    const cleared = await admin('PUT', `/rdns/${primary.uuid}`, { rdns: null });
    expect(cleared.body.attributes.rdns).toBeNull();
    const left = (await admin('GET', `/rdns?user=${t.env.client.id}&per_page=100`)).body.data;
    expect(left.map((r: Body) => r.attributes.uuid)).not.toContain(primary.uuid);

    for (const body of [{ rdns: 'nodots' }, { rdns: 'bad_name.example.com' }, {}, { rdns: 'a.b', x: 1 }])
      expect((await admin('PUT', `/rdns/${primary.uuid}`, body)).status, JSON.stringify(body)).toBe(400);
    expect((await admin('PUT', `/rdns/${randomUUID()}`, { rdns: 'a.example.com' })).status).toBe(404);
    const log = await t.env.db
      .selectFrom('activity_log')
      .select('actor')
      .where('event', '=', 'ip_address.rdns_set')
      .where('instance_id', '=', id)
      .execute();
    expect(log).toHaveLength(3);
  });

  it('shows any instance’s firewall; customers and the unauthenticated are refused', async () => {
    const { id } = await t.instance();
    const rules = [
      { direction: 'inbound', protocol: 'tcp', port: '22', cidr: '0.0.0.0/0', action: 'accept' },
    ];
    expect((await t.api('PUT', `/${id}/firewall`, { enabled: true, rules })).status).toBe(202);
    await t.settled(id);
    const shown = await admin('GET', `/instances/${id}/firewall`);
    expect(shown.status).toBe(200);
    expect(shown.body.attributes).toMatchObject({ enabled: true, in_sync: true, rules: [{ port: '22' }] });
    expect((await admin('GET', `/instances/${randomUUID()}/firewall`)).status).toBe(404);

    for (const path of ['/networks', '/rdns', `/instances/${id}/firewall`]) {
      expect((await t.env.client.call('GET', `/api/application/cloudsvc${path}`)).status, path).toBe(403);
      expect((await t.env.call(null, 'GET', `/api/application/cloudsvc${path}`)).status, path).toBe(401);
    }
  });
});
