import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLocation } from '../../db/repositories/catalogue/locations.js';
import { expectDeletedOnce, expectFieldRefusals, expectInUseTwice, statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

const newLocation = (overrides: Record<string, unknown> = {}) => ({
  code: `loc-${randomUUID().slice(0, 8)}`,
  name: 'Frankfurt 1',
  ...overrides,
});

describe('locations of the Application API', () => {
  it('are created, shown, listed, renamed and deleted; customers see them to order in', async () => {
    const fields = newLocation();
    const created = await admin('POST', '/locations', fields);
    expect(created.status).toBe(201);
    const location = created.body.attributes;
    expect(location).toMatchObject(fields);
    expect((await admin('GET', `/locations/${location.uuid}`)).body.attributes).toEqual(location);
    const offered = await t.call(t.client, 'GET', '/api/client/cloud/locations');
    expect(offered.body.data.map((l: { attributes: { code: string } }) => l.attributes.code)).toContain(
      fields.code,
    );

    const renamed = await admin('PATCH', `/locations/${location.uuid}`, { name: 'Frankfurt (FRA1)' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.attributes).toEqual({ ...location, name: 'Frankfurt (FRA1)' });
    expect((await admin('PATCH', `/locations/${location.uuid}`, { name: 'Frankfurt (FRA1)' })).body).toEqual(
      renamed.body,
    );

    await expectDeletedOnce(admin, `/locations/${location.uuid}`);
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [newLocation({ code: 'FRA 1' }), 'code'],
      [newLocation({ code: 'x'.repeat(65) }), 'code'],
      [newLocation({ name: '' }), 'name'],
      [newLocation({ name: 'n'.repeat(101) }), 'name'],
      [newLocation({ country: 'DE' }), 'country'],
    ];
    await expectFieldRefusals((body) => admin('POST', '/locations', body), cases);
    const { attributes: location } = (await admin('POST', '/locations', newLocation())).body;
    const before = await findLocation(t.db, location.uuid);
    for (const change of [{ code: 'other', name: 'x' }, {}, { name: '  ' }])
      expect((await admin('PATCH', `/locations/${location.uuid}`, change)).status).toBe(400);
    expect(await findLocation(t.db, location.uuid)).toEqual(before);
    expect((await admin('PATCH', `/locations/${randomUUID()}`, { name: 'x' })).status).toBe(404);
    const refusedCodes = cases.map(([body]) => String(body.code));
    const made = await t.db
      .selectFrom('locations')
      .select('code')
      .where('code', 'in', refusedCodes)
      .execute();
    expect(made).toEqual([]);
  });

  it('refuses a second location of one code, also when two are created at once', async () => {
    const fields = newLocation();
    expect((await admin('POST', '/locations', fields)).status).toBe(201);
    expect((await admin('POST', '/locations', fields)).body.errors[0].code).toBe('SVC-CONFLICT-409');
    const racing = newLocation();
    const both = await Promise.all([
      admin('POST', '/locations', racing),
      admin('POST', '/locations', racing),
    ]);
    expect(statusesOf(both)).toEqual([201, 409]);
  });

  it('two deletes of one location at once: one deletes it, the other finds nothing', async () => {
    const { attributes: location } = (await admin('POST', '/locations', newLocation())).body;
    const both = await Promise.all([
      admin('DELETE', `/locations/${location.uuid}`),
      admin('DELETE', `/locations/${location.uuid}`),
    ]);
    expect(statusesOf(both)).toEqual([204, 404]);
  });

  it('refuses to delete a location that hypervisors, pools or instances refer to, counting each', async () => {
    const { attributes: location } = (await admin('POST', '/locations', newLocation())).body;
    const hypervisor = await seed.hypervisor(t.db, location.uuid);
    await seed.uniqueIpv4Pool(t.db, location.uuid);
    const instance = await seed.instance(t.db, {
      userId: t.client.id,
      locationId: location.uuid,
      hypervisorId: hypervisor.id,
    });
    await expectInUseTwice(
      admin,
      `/locations/${location.uuid}`,
      'The location holds 1 hypervisor, 1 IP pool and 1 instance.',
    );
    // A deleted instance still says where it ran: the location stays.
    await t.db.updateTable('instances').set({ status: 'deleted' }).where('id', '=', instance.id).execute();
    const still = await admin('DELETE', `/locations/${location.uuid}`);
    expect(still.body.errors[0].detail).toBe('The location holds 1 hypervisor, 1 IP pool and 1 instance.');
    expect(await findLocation(t.db, location.uuid)).toBeDefined();
  });

  it('are not for customers: a client key is refused, and no key', async () => {
    expect(
      (await t.call(t.client, 'POST', '/api/application/cloudsvc/locations', newLocation())).status,
    ).toBe(403);
    expect((await t.call(null, 'GET', '/api/application/cloudsvc/locations')).status).toBe(401);
  });
});
