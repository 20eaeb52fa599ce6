import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findImageVersion } from '../../db/repositories/catalogue/image-versions.js';
import { expectFieldRefusals, expectInUseTwice, statusesOf } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * The Application API's image versions: added by URL and checksum, shown with each hypervisor's
 * copy, deprecated, deleted once unused. No worker runs here: every copy stays `pending`
 * (test/application/image-distribution.test.ts has them fetched).
 */
let t: Stack;
let locationCode: string;
beforeAll(async () => {
  t = await startStack();
  locationCode = (
    await t.db.selectFrom('locations').select('code').where('id', '=', t.locationId).executeTakeFirstOrThrow()
  ).code;
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

const SHA256 = 'ab'.repeat(32);
const newVersion = (overrides: Record<string, unknown> = {}) => ({
  url: 'https://images.example.com/debian-12.qcow2',
  checksum_algorithm: 'sha256',
  checksum: SHA256,
  format: 'qcow2',
  locations: [locationCode],
  ...overrides,
});

async function newImage() {
  const code = `image-${randomUUID().slice(0, 8)}`;
  const res = await admin('POST', '/images', { code, name: 'Imported', os_family: 'other', min_disk_mb: 64 });
  expect(res.status).toBe(201);
  return res.body.attributes.uuid as string;
}

async function addVersion(imageId: string, overrides: Record<string, unknown> = {}) {
  const res = await admin('POST', `/images/${imageId}/versions`, newVersion(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attributes;
}

describe('image versions of the Application API', () => {
  it('are added, numbered in turn, shown with each hypervisor of their locations pending, and listed newest first', async () => {
    const [first, second] = await Promise.all([
      seed.hypervisor(t.db, t.locationId),
      seed.hypervisor(t.db, t.locationId),
    ]);
    const elsewhere = await seed.hypervisor(t.db);
    const imageId = await newImage();
    const v1 = await addVersion(imageId, { checksum: SHA256.toUpperCase() });
    expect(v1).toMatchObject({
      image: imageId,
      version: 1,
      url: 'https://images.example.com/debian-12.qcow2',
      checksum_algorithm: 'sha256',
      checksum: SHA256,
      format: 'qcow2',
      locations: [locationCode],
      deprecated: false,
      deprecated_at: null,
    });
    const held = v1.hypervisors.map((h: { uuid: string }) => h.uuid);
    expect(held).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(held).not.toContain(elsewhere.id);
    for (const host of v1.hypervisors)
      expect(host).toMatchObject({ location: locationCode, state: 'pending', size_mb: null, error: null });
    expect((await admin('GET', `/image-versions/${v1.uuid}`)).body.attributes).toEqual(v1);

    // The same source again is a new version, numbered after the first.
    const v2 = await addVersion(imageId, {
      checksum_algorithm: 'sha512',
      checksum: 'cd'.repeat(64),
      format: 'raw',
    });
    expect(v2.version).toBe(2);
    const listed = await admin('GET', `/images/${imageId}/versions`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((v: { attributes: { version: number } }) => v.attributes.version)).toEqual([
      2, 1,
    ]);
    expect(listed.body.meta.pagination.total).toBe(2);
  });

  it('takes every location when none is named', async () => {
    const imageId = await newImage();
    const version = await addVersion(imageId, { locations: undefined });
    expect(version.locations).toContain(locationCode);
  });

  it('numbers two versions added at once apart', async () => {
    const imageId = await newImage();
    const both = await Promise.all([
      admin('POST', `/images/${imageId}/versions`, newVersion()),
      admin('POST', `/images/${imageId}/versions`, newVersion()),
    ]);
    expect(statusesOf(both)).toEqual([201, 201]);
    expect(both.map((r) => r.body.attributes.version).sort()).toEqual([1, 2]);
  });

  it('refuses bad input naming the field, and an unknown image with 404; adds nothing', async () => {
    const imageId = await newImage();
    const cases: [Record<string, unknown>, string][] = [
      [newVersion({ url: 'http://images.example.com/a.qcow2' }), 'url'],
      [newVersion({ url: 'ftp://images.example.com/a.qcow2' }), 'url'],
      [newVersion({ url: 'https://127.0.0.1/a.qcow2' }), 'url'],
      [newVersion({ url: 'https://169.254.169.254/latest' }), 'url'],
      [newVersion({ url: 'https://localhost/a.qcow2' }), 'url'],
      [newVersion({ url: 'https://user:pw@images.example.com/a.qcow2' }), 'url'],
      [newVersion({ url: 'not a url' }), 'url'],
      [newVersion({ checksum: 'ab'.repeat(31) }), 'checksum'],
      [newVersion({ checksum: 'zz'.repeat(32) }), 'checksum'],
      [newVersion({ checksum_algorithm: 'sha512' }), 'checksum'],
      [newVersion({ checksum_algorithm: 'md5' }), 'checksum_algorithm'],
      [newVersion({ format: 'vmdk' }), 'format'],
      [newVersion({ locations: ['no-such-place'] }), 'locations'],
      [newVersion({ locations: [] }), 'locations'],
      [newVersion({ kernel: 'vmlinuz' }), 'kernel'],
    ];
    await expectFieldRefusals((body) => admin('POST', `/images/${imageId}/versions`, body), cases);
    expect((await admin('GET', `/images/${imageId}/versions`)).body.data).toEqual([]);
    expect((await admin('POST', `/images/${randomUUID()}/versions`, newVersion())).status).toBe(404);
    expect((await admin('GET', `/images/${randomUUID()}/versions`)).status).toBe(404);
    expect((await admin('GET', `/image-versions/${randomUUID()}`)).status).toBe(404);
  });

  it('deprecates one (twice alike, and two at once), and takes it back', async () => {
    const version = await addVersion(await newImage());
    const path = `/image-versions/${version.uuid}`;
    const first = await admin('PATCH', path, { deprecated: true });
    expect(first.status).toBe(200);
    expect(first.body.attributes).toMatchObject({ deprecated: true });
    expect(first.body.attributes.deprecated_at).not.toBeNull();
    const [a, b] = await Promise.all([
      admin('PATCH', path, { deprecated: true }),
      admin('PATCH', path, { deprecated: true }),
    ]);
    expect(a.body.attributes.deprecated_at).toBe(first.body.attributes.deprecated_at);
    expect(b.body.attributes.deprecated_at).toBe(first.body.attributes.deprecated_at);
    const back = await admin('PATCH', path, { deprecated: false });
    expect(back.body.attributes).toMatchObject({ deprecated: false, deprecated_at: null });
    expect((await admin('PATCH', path, {})).status).toBe(400);
    expect((await admin('PATCH', `/image-versions/${randomUUID()}`, { deprecated: true })).status).toBe(404);
  });

  it('deletes an unused one once; two deletes at once: one deletes it, the other finds nothing', async () => {
    const imageId = await newImage();
    const once = await addVersion(imageId);
    expect((await admin('DELETE', `/image-versions/${once.uuid}`)).status).toBe(204);
    expect((await admin('GET', `/image-versions/${once.uuid}`)).status).toBe(404);
    expect((await admin('DELETE', `/image-versions/${once.uuid}`)).status).toBe(404);
    const raced = await addVersion(imageId);
    const both = await Promise.all([
      admin('DELETE', `/image-versions/${raced.uuid}`),
      admin('DELETE', `/image-versions/${raced.uuid}`),
    ]);
    expect(statusesOf(both)).toEqual([204, 404]);
    expect(await findImageVersion(t.db, raced.uuid)).toBeUndefined();
  });

  it('refuses to delete one an instance was made from (twice, and two at once) and deletes it once the instance is deleted', async () => {
    const imageId = await newImage();
    const version = await addVersion(imageId);
    const hypervisor = await seed.hypervisor(t.db, t.locationId);
    const instance = await seed.instance(t.db, {
      userId: t.client.id,
      locationId: t.locationId,
      hypervisorId: hypervisor.id,
    });
    await t.db
      .updateTable('instances')
      .set({ image_id: imageId, image_version_id: version.uuid })
      .where('id', '=', instance.id)
      .execute();
    const path = `/image-versions/${version.uuid}`;
    await expectInUseTwice(admin, path, 'The image version is used by 1 instance.');
    await expectInUseTwice(admin, path, 'The image version is used by 1 instance.');
    expect(await findImageVersion(t.db, version.uuid)).toBeDefined();
    await t.db.updateTable('instances').set({ status: 'deleted' }).where('id', '=', instance.id).execute();
    expect((await admin('DELETE', path)).status).toBe(204);
    const kept = await t.db
      .selectFrom('instances')
      .select('image_version_id')
      .where('id', '=', instance.id)
      .executeTakeFirst();
    expect(kept).toEqual({ image_version_id: null });
  });

  it('go with their image when it is deleted', async () => {
    const imageId = await newImage();
    const version = await addVersion(imageId);
    expect((await admin('DELETE', `/images/${imageId}`)).status).toBe(204);
    expect(await findImageVersion(t.db, version.uuid)).toBeUndefined();
  });

  it('are not for customers: a client key is refused, and no key', async () => {
    const imageId = await newImage();
    const version = await addVersion(imageId);
    for (const [method, path, body] of [
      ['GET', `/images/${imageId}/versions`],
      ['POST', `/images/${imageId}/versions`, newVersion()],
      ['GET', `/image-versions/${version.uuid}`],
      ['PATCH', `/image-versions/${version.uuid}`, { deprecated: true }],
      ['DELETE', `/image-versions/${version.uuid}`],
    ] as const) {
      expect((await t.call(t.client, method, `/api/application/cloudsvc${path}`, body)).status).toBe(403);
      expect((await t.call(null, method, `/api/application/cloudsvc${path}`, body)).status).toBe(401);
    }
    expect((await findImageVersion(t.db, version.uuid))?.deprecated_at).toBeNull();
  });
});
