import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { isolatedDatabase, tableDigest } from '../support/database.js';
import type { Body } from '../support/http.js';

/**
 * The provider's side of firewalls: the default firewall new instances are born with (on a
 * database of this file's own, since it shapes every instance made there), and any instance's
 * firewall changed by an administrator; and a private network made for a customer.
 */
const database = await isolatedDatabase();
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack({ DATABASE_URL: database.url });
});
afterAll(async () => {
  await t?.close();
  await database.drop();
});

const admin = (method: string, path: string, body?: unknown) =>
  t.env.admin.call(method, `/api/application/cloudsvc${path}`, body);
const ssh = { direction: 'inbound', protocol: 'tcp', port: '22', cidr: '0.0.0.0/0', action: 'accept' };
const web = { ...ssh, port: '80-443', description: 'web' };
const firewallTables = async () => {
  const digest = await tableDigest(t.env.db);
  return [digest.firewall_defaults, digest.firewall_default_rules];
};
/** What the instance's hypervisor holds of its firewall. */
const held = (id: string) => {
  const firewall = t.hostOf(id).hypervisor().instances[id]?.firewall;
  return (
    firewall && {
      revision: firewall.revision,
      enabled: firewall.enabled,
      ports: firewall.rules.map((r) => r.port_from),
    }
  );
};

describe('the default firewall', () => {
  it('is off and empty until set; is set whole, twice alike; of two set at once one wins whole; bad input changes nothing', async () => {
    expect((await admin('GET', '/firewall/defaults')).body.attributes).toMatchObject({
      enabled: false,
      rules: [],
    });
    const before = await firewallTables();
    for (const body of [
      { enabled: true, rules: [{ ...ssh, protocol: 'icmp' }] },
      { enabled: true, rules: [{ ...ssh, cidr: '10.0.0.1/8' }] },
      { enabled: true, rules: [{ ...ssh, port: '0' }] },
      { enabled: 'yes', rules: [] },
      { enabled: true },
      { enabled: true, rules: [], extra: 1 },
    ]) {
      const res = await admin('PUT', '/firewall/defaults', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].code).toBe('SVC-REQ-400');
    }
    expect(await firewallTables()).toEqual(before);

    for (let i = 0; i < 2; i++) {
      const set = await admin('PUT', '/firewall/defaults', { enabled: true, rules: [ssh, web] });
      expect(set.status).toBe(200);
      expect(set.body.attributes).toMatchObject({
        enabled: true,
        rules: [{ port: '22' }, { port: '80-443', description: 'web' }],
      });
    }
    const [a, b] = await Promise.all([
      admin('PUT', '/firewall/defaults', { enabled: true, rules: [ssh] }),
      admin('PUT', '/firewall/defaults', { enabled: false, rules: [web, web, web] }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const now = (await admin('GET', '/firewall/defaults')).body.attributes;
    expect([
      JSON.stringify([true, ['22']]),
      JSON.stringify([false, ['80-443', '80-443', '80-443']]),
    ]).toContain(JSON.stringify([now.enabled, now.rules.map((r: Body) => r.port)]));

    const path = '/api/application/cloudsvc/firewall/defaults';
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { enabled: true, rules: [] }],
    ] as const) {
      expect((await t.env.client.call(method, path, body)).status).toBe(403);
      expect((await t.env.call(null, method, path, body)).status).toBe(401);
    }
    expect(await admin('GET', '/firewall/defaults')).toMatchObject({
      status: 200,
      body: { attributes: now },
    });
    expect((await admin('PUT', '/firewall/defaults', { enabled: false, rules: [] })).status).toBe(200);
  });

  it('is what a new instance is born with, applied by its creation; an instance made before keeps its own; set off and empty, new instances have none', async () => {
    expect((await admin('PUT', '/firewall/defaults', { enabled: false, rules: [] })).status).toBe(200);
    const older = await t.instance();
    expect((await admin('PUT', '/firewall/defaults', { enabled: true, rules: [ssh, web] })).status).toBe(200);
    const [born, twin] = await Promise.all([t.instance(), t.instance()]);
    for (const { id } of [born, twin]) {
      expect((await t.api('GET', `/${id}/firewall`)).body.attributes).toMatchObject({
        enabled: true,
        rules: [{ port: '22' }, { port: '80-443' }],
        revision: 1,
        in_sync: true,
      });
      expect(held(id)).toEqual({ revision: 1, enabled: true, ports: [22, 80] });
    }
    expect((await t.api('GET', `/${older.id}/firewall`)).body.attributes).toMatchObject({
      revision: 0,
      rules: [],
    });
    expect(held(older.id)).toBeUndefined();
    // The customer changes it as their own.
    expect((await t.api('PUT', `/${born.id}/firewall/rules`, { rules: [web] })).status).toBe(202);
    await t.settled(born.id);
    expect(held(born.id)).toEqual({ revision: 2, enabled: true, ports: [80] });

    expect((await admin('PUT', '/firewall/defaults', { enabled: false, rules: [] })).status).toBe(200);
    const plain = await t.instance();
    expect((await t.api('GET', `/${plain.id}/firewall`)).body.attributes).toMatchObject({
      revision: 0,
      in_sync: true,
    });
    expect(held(plain.id)).toBeUndefined();
  });
});

describe('an administrator and a customer’s firewall', () => {
  it('changes any instance’s, twice alike, logged in the owner’s activity; two at once hold one another off; bad input and unknown instances change nothing', async () => {
    const { id } = await t.instance();
    for (let i = 0; i < 2; i++) {
      const res = await admin('PUT', `/instances/${id}/firewall`, { enabled: true, rules: [ssh] });
      expect(res.status).toBe(202);
      expect(res.body.attributes).toMatchObject({ enabled: true, rules: [{ port: '22' }] });
      await t.settled(id);
    }
    expect(held(id)).toEqual({ revision: 2, enabled: true, ports: [22] });
    expect((await t.api('GET', `/${id}/firewall`)).body.attributes).toMatchObject({
      in_sync: true,
      revision: 2,
    });
    // Only the toggle: the rules stay.
    expect((await admin('PUT', `/instances/${id}/firewall`, { enabled: false })).status).toBe(202);
    await t.settled(id);
    expect(held(id)).toEqual({ revision: 3, enabled: false, ports: [22] });

    const both = await Promise.all([
      admin('PUT', `/instances/${id}/firewall`, { rules: [web] }),
      admin('PUT', `/instances/${id}/firewall`, { rules: [ssh, web] }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    await t.settled(id);
    expect(held(id)?.revision).toBe(4);

    const log = await t.env.db
      .selectFrom('instance_operations')
      .select('actor')
      .where('instance_id', '=', id)
      .where('kind', '=', 'firewall_apply')
      .execute();
    expect(new Set(log.map((l) => l.actor))).toEqual(new Set([`admin:${t.env.admin.id}`]));

    const before = await t.api('GET', `/${id}/firewall`);
    for (const body of [
      { rules: [{ ...ssh, direction: 'sideways' }] },
      { enabled: 1 },
      { rules: [ssh], x: 1 },
    ])
      expect((await admin('PUT', `/instances/${id}/firewall`, body)).status, JSON.stringify(body)).toBe(400);
    expect((await admin('PUT', `/instances/${randomUUID()}/firewall`, { enabled: true })).status).toBe(404);
    expect((await t.api('GET', `/${id}/firewall`)).body).toEqual(before.body);
    expect(
      (
        await t.env.client.call('PUT', `/api/application/cloudsvc/instances/${id}/firewall`, {
          enabled: true,
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.env.call(null, 'PUT', `/api/application/cloudsvc/instances/${id}/firewall`, { enabled: true }))
        .status,
    ).toBe(401);
  });
});

describe('a private network made for a customer', () => {
  it('is the customer’s, as if they had made it, logged in their activity; the customer’s rules hold; two overlapping at once, one is made', async () => {
    const body = {
      user: t.env.client.id,
      name: `made-${randomUUID().slice(0, 6)}`,
      location: t.location.code,
      cidr: '10.44.0.0/24',
    };
    const made = await admin('POST', '/networks', body);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.attributes).toMatchObject({ name: body.name, cidr: '10.44.0.0/24', nics: [] });
    const mine = await t.api('GET', `/private-networks/${made.body.attributes.uuid}`);
    expect(mine.status).toBe(200);
    expect(
      (await t.env.stranger.call('GET', `/api/client/cloud/private-networks/${made.body.attributes.uuid}`))
        .status,
    ).toBe(404);
    const logged = await t.env.db
      .selectFrom('activity_log')
      .select(['actor', 'user_id'])
      .where('event', '=', 'private_network.created')
      .where('user_id', '=', t.env.client.id)
      .execute();
    expect(logged).toContainEqual({ actor: `admin:${t.env.admin.id}`, user_id: t.env.client.id });

    // Asked again: the name is the customer's already, and so is the range.
    const again = await admin('POST', '/networks', body);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].detail).toContain('customer');
    const overlapping = await admin('POST', '/networks', { ...body, name: 'other', cidr: '10.44.0.128/25' });
    expect(overlapping.status).toBe(409);

    const pair = await Promise.all([
      admin('POST', '/networks', { ...body, name: 'left', cidr: '10.45.0.0/24' }),
      admin('POST', '/networks', { ...body, name: 'right', cidr: '10.45.0.0/25' }),
    ]);
    expect(pair.map((r) => r.status).sort()).toEqual([201, 409]);

    for (const bad of [
      { ...body, user: randomUUID() },
      { ...body, cidr: '8.8.8.0/24' },
      { ...body, location: 'nowhere' },
      { ...body, user: undefined },
    ]) {
      const res = await admin('POST', '/networks', { ...bad, name: `bad-${randomUUID().slice(0, 6)}` });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await t.env.client.call('POST', '/api/application/cloudsvc/networks', body)).status).toBe(403);
    expect((await t.env.call(null, 'POST', '/api/application/cloudsvc/networks', body)).status).toBe(401);
  });
});
