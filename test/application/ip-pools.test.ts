import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findIpPool } from '../../db/repositories/network/ip-pools.js';
import { eventually } from '../support/eventually.js';
import { allPages } from '../support/http.js';
import { expectDeletedOnce, expectFieldRefusals, statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

/** Inserts into ip_pools waiting on a lock: another transaction's row the exclusion constraint must judge. */
async function insertsWaiting(): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into "ip_pools"%'`.execute(
    t.db,
  );
  return rows[0]!.n;
}

/** A /24 in 172.16.0.0/12 that no other file draws (seeds draw from 10.0.0.0/8). */
const freshRange = () => {
  const [a, b] = randomBytes(2);
  return { prefix: `172.${16 + (a! % 16)}.${b}`, cidr: `172.${16 + (a! % 16)}.${b}.0/24` };
};

async function newPool(overrides: Record<string, unknown> = {}) {
  const { prefix, cidr } = freshRange();
  const location = await seed.location(t.db);
  return { location_uuid: location.id, name: 'public v4', cidr, gateway: `${prefix}.1`, ...overrides };
}

describe('IP pools of the Application API', () => {
  it('are created, shown, listed by location, renamed and deleted; instances take their addresses', async () => {
    const fields = await newPool();
    const created = await admin('POST', '/ip-pools', fields);
    expect(created.status).toBe(201);
    const pool = created.body.attributes;
    expect(pool).toMatchObject({
      ...fields,
      family: 4,
      addresses_total: 253,
      addresses_assigned: 0,
      addresses_free: 253,
    });
    expect((await admin('GET', `/ip-pools/${pool.uuid}`)).body.attributes).toEqual(pool);
    const listed = await allPages((page) =>
      admin('GET', `/ip-pools?location_uuid=${fields.location_uuid}&page=${page}`),
    );
    expect(listed.map((p) => p.attributes.uuid)).toEqual([pool.uuid]);

    // An instance placed in the location takes the lowest free address, which the pool shows.
    const hypervisor = await seed.hypervisor(t.db, fields.location_uuid);
    await t.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', hypervisor.id).execute();
    const { plan, image } = await seed.catalog(t.db);
    const location = (await admin('GET', `/locations/${fields.location_uuid}`)).body.attributes;
    const ordered = await t.call(t.client, 'POST', '/api/client/cloud', {
      hostname: 'pooled.example.test',
      plan: plan.code,
      image: image.code,
      location: location.code,
    });
    expect(ordered.status).toBe(202);
    const gatewayPrefix = fields.gateway.slice(0, -2);
    expect(ordered.body.attributes.primary_ipv4).toBe(`${gatewayPrefix}.2`);
    const shown = (await admin('GET', `/ip-pools/${pool.uuid}`)).body.attributes;
    expect(shown).toMatchObject({ addresses_assigned: 1, addresses_free: 252 });
    const addresses = (await admin('GET', `/ip-pools/${pool.uuid}/addresses`)).body.data;
    expect(addresses.map((a: { attributes: unknown }) => a.attributes)).toEqual([
      expect.objectContaining({
        address: `${gatewayPrefix}.2`,
        kind: 'fixed',
        is_primary: true,
        instance_uuid: ordered.body.attributes.uuid,
        user_uuid: t.client.id,
      }),
    ]);
    const refused = await admin('DELETE', `/ip-pools/${pool.uuid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'SVC-INUSE-409',
      detail: 'The pool holds 1 assigned address.',
    });

    const renamed = await admin('PATCH', `/ip-pools/${pool.uuid}`, { name: 'FRA1 v4' });
    expect(renamed.body.attributes).toMatchObject({ name: 'FRA1 v4', cidr: fields.cidr });
    expect((await admin('PATCH', `/ip-pools/${pool.uuid}`, { name: 'FRA1 v4' })).body).toEqual(renamed.body);
    // Two renames at once: both answer, and the pool holds one of the two names.
    const renames = await Promise.all(
      ['FRA1 a', 'FRA1 b'].map((name) => admin('PATCH', `/ip-pools/${pool.uuid}`, { name })),
    );
    expect(statusesOf(renames)).toEqual([200, 200]);
    expect(['FRA1 a', 'FRA1 b']).toContain((await findIpPool(t.db, pool.uuid))?.name);

    await t.db.deleteFrom('ip_addresses').where('pool_id', '=', pool.uuid).execute();
    await expectDeletedOnce(admin, `/ip-pools/${pool.uuid}`);
  });

  it('takes an IPv6 range, and one without a gateway', async () => {
    const location = await seed.location(t.db);
    const [a, b] = randomBytes(2);
    const cidr = `2001:db8:${a!.toString(16)}${b!.toString(16)}:ff00::/120`;
    const created = await admin('POST', '/ip-pools', { location_uuid: location.id, name: 'v6', cidr });
    expect(created.status).toBe(201);
    expect(created.body.attributes).toMatchObject({ family: 6, gateway: null, addresses_total: 255 });
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const base = await newPool();
    const [net] = base.cidr.split('/');
    const prefix = net!.split('.').slice(0, 3).join('.');
    await expectFieldRefusals(
      (body) => admin('POST', '/ip-pools', body),
      [
        [{ ...base, cidr: 'not-a-range' }, 'cidr'],
        [{ ...base, cidr: `${prefix}.0` }, 'cidr'],
        [{ ...base, cidr: `${prefix}.5/24` }, 'cidr'],
        [{ ...base, cidr: '10.0.0.0/8' }, 'cidr'],
        [{ ...base, cidr: `${prefix}.0/31`, gateway: null }, 'cidr'],
        [{ ...base, cidr: '2001:db8::/32', gateway: null }, 'cidr'],
        [{ ...base, gateway: '198.51.100.1' }, 'gateway'],
        [{ ...base, gateway: `${prefix}.0` }, 'gateway'],
        [{ ...base, gateway: `${prefix}.255` }, 'gateway'],
        [{ ...base, gateway: '2001:db8::1' }, 'gateway'],
        [{ ...base, gateway: 'router' }, 'gateway'],
        [{ ...base, location_uuid: randomUUID() }, 'location_uuid'],
        [{ ...base, location_uuid: 'fra-1' }, 'location_uuid'],
        [{ ...base, name: '' }, 'name'],
        [{ ...base, family: 4 }, 'family'],
      ],
    );
    const made = await t.db
      .selectFrom('ip_pools')
      .select('id')
      .where('location_id', '=', base.location_uuid)
      .execute();
    expect(made).toEqual([]);
    const { attributes: pool } = (await admin('POST', '/ip-pools', base)).body;
    const before = await findIpPool(t.db, pool.uuid);
    for (const change of [{ cidr: '10.1.0.0/24' }, { name: '' }, {}])
      expect((await admin('PATCH', `/ip-pools/${pool.uuid}`, change)).status).toBe(400);
    expect(await findIpPool(t.db, pool.uuid)).toEqual(before);
  });

  it('refuses a range that overlaps another pool, of any location, also when two are created at once', async () => {
    const fields = await newPool();
    expect((await admin('POST', '/ip-pools', fields)).status).toBe(201);
    const elsewhere = await seed.location(t.db);
    const wider = fields.cidr
      .replace('.0/24', '.0/23')
      .replace(/\.(\d+)\.0\/23/, (_, c) => `.${Number(c) & ~1}.0/23`);
    for (const cidr of [fields.cidr, wider, fields.cidr.replace('.0/24', '.128/25')]) {
      const refused = await admin('POST', '/ip-pools', {
        ...fields,
        location_uuid: elsewhere.id,
        cidr,
        gateway: null,
      });
      expect(refused.status, cidr).toBe(409);
      expect(refused.body.errors[0]).toMatchObject({
        code: 'SVC-CONFLICT-409',
        detail: `The range overlaps the pool ${fields.cidr}: addresses are unique in the whole plane.`,
      });
    }
    const racing = await newPool();
    const both = await Promise.all([
      admin('POST', '/ip-pools', racing),
      admin('POST', '/ip-pools', { ...racing, name: 'other' }),
    ]);
    expect(statusesOf(both)).toEqual([201, 409]);
  });

  it('refuses a range whose overlapping pool is being created at that moment, also when PostgreSQL ends the wait as a deadlock', async () => {
    const fields = await newPool();
    const halves = [fields.cidr.replace('.0/24', '.0/25'), fields.cidr.replace('.0/24', '.128/25')];
    const held = (cidr: string) => ({
      location_id: fields.location_uuid,
      name: 'held',
      family: 4 as const,
      cidr,
      gateway: null,
    });
    const { asked } = await t.db.transaction().execute(async (trx) => {
      // This transaction waits longest before it looks for a deadlock: the request's is the one failed.
      await sql`set local deadlock_timeout = '20s'`.execute(trx);
      await trx.insertInto('ip_pools').values(held(halves[0]!)).execute();
      const asked = admin('POST', '/ip-pools', fields);
      // The request's insert waits for this transaction (the exclusion constraint's check)...
      await eventually(
        async () => ((await insertsWaiting()) > 0 ? true : undefined),
        20_000,
        'the request waiting on the held pool',
      );
      // ...and this one now waits for the request's: PostgreSQL fails the request's statement.
      await trx.insertInto('ip_pools').values(held(halves[1]!)).execute();
      return { asked };
    });
    const answer = await asked;
    expect(answer.status).toBe(409);
    expect(answer.body.errors[0].detail).toBe(
      'The range overlaps a pool created meanwhile: addresses are unique in the whole plane.',
    );
  });

  it('two deletes of one pool at once: one deletes it, the other finds nothing', async () => {
    const { attributes: pool } = (await admin('POST', '/ip-pools', await newPool())).body;
    const both = await Promise.all([
      admin('DELETE', `/ip-pools/${pool.uuid}`),
      admin('DELETE', `/ip-pools/${pool.uuid}`),
    ]);
    expect(statusesOf(both)).toEqual([204, 404]);
  });

  it('are not for customers: a client key is refused, and no key', async () => {
    expect(
      (await t.call(t.client, 'POST', '/api/application/cloudsvc/ip-pools', await newPool())).status,
    ).toBe(403);
    expect((await t.call(null, 'GET', '/api/application/cloudsvc/ip-pools')).status).toBe(401);
  });
});
