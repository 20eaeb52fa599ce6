import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findImage } from '../../db/repositories/catalogue/images.js';
import { allPages } from '../support/http.js';
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
const customer = (method: string, path: string, body?: unknown) =>
  t.call(t.client, method, `/api/client/cloud${path}`, body);

const newImage = (overrides: Record<string, unknown> = {}) => ({
  code: `image-${randomUUID().slice(0, 8)}`,
  name: 'Debian 12',
  os_family: 'debian',
  min_disk_mb: 2048,
  ...overrides,
});

/** An instance of the caller's, running on a hypervisor, made from `imageId`. */
async function instanceFrom(imageId: string) {
  const hypervisor = await seed.hypervisor(t.db, t.locationId);
  const instance = await seed.instance(t.db, {
    userId: t.client.id,
    locationId: t.locationId,
    hypervisorId: hypervisor.id,
  });
  await t.db.updateTable('instances').set({ image_id: imageId }).where('id', '=', instance.id).execute();
  return instance;
}

describe('images of the Application API', () => {
  it('are created, shown, listed, changed and deleted; customers see the public ones', async () => {
    const fields = newImage();
    const created = await admin('POST', '/images', fields);
    expect(created.status).toBe(201);
    const image = created.body.attributes;
    expect(image).toMatchObject({ ...fields, virtualization: 'kvm', is_public: true });
    expect((await admin('GET', `/images/${image.uuid}`)).body.attributes).toEqual(image);

    const hidden = (await admin('POST', '/images', newImage({ is_public: false }))).body.attributes;
    const listed = await allPages((page) => admin('GET', `/images?per_page=100&page=${page}`));
    expect(listed.map((i) => i.attributes.uuid)).toEqual(expect.arrayContaining([image.uuid, hidden.uuid]));
    const offered = await allPages((page) => customer('GET', `/images?per_page=100&page=${page}`));
    expect(offered.find((i) => i.attributes.uuid === image.uuid).attributes).toEqual({
      uuid: image.uuid,
      code: fields.code,
      name: 'Debian 12',
      os_family: 'debian',
      min_disk_mb: 2048,
      created_at: image.created_at,
    });
    expect(offered.map((i) => i.attributes.uuid)).not.toContain(hidden.uuid);

    const changed = await admin('PATCH', `/images/${image.uuid}`, { name: 'Debian 12.8', is_public: false });
    expect(changed.status).toBe(200);
    expect(changed.body.attributes).toMatchObject({
      name: 'Debian 12.8',
      is_public: false,
      code: fields.code,
    });
    // The same change again, and none at all, change nothing more.
    for (const again of [{ name: 'Debian 12.8' }, {}])
      expect((await admin('PATCH', `/images/${image.uuid}`, again)).body.attributes).toEqual(
        changed.body.attributes,
      );

    await expectDeletedOnce(admin, `/images/${image.uuid}`);
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [newImage({ code: 'Debian 12' }), 'code'],
      [newImage({ os_family: 'beos' }), 'os_family'],
      [newImage({ virtualization: 'xen' }), 'virtualization'],
      [newImage({ min_disk_mb: 0 }), 'min_disk_mb'],
      [newImage({ min_disk_mb: 2.5 }), 'min_disk_mb'],
      [newImage({ name: '' }), 'name'],
      [newImage({ is_public: 'yes' }), 'is_public'],
      [newImage({ kernel: '/boot/vmlinuz' }), 'kernel'],
    ];
    await expectFieldRefusals((body) => admin('POST', '/images', body), cases);
    const { attributes: image } = (await admin('POST', '/images', newImage())).body;
    const before = await findImage(t.db, image.uuid);
    const badChange = await admin('PATCH', `/images/${image.uuid}`, { code: 'other', os_family: 'beos' });
    expect(badChange.status).toBe(400);
    expect(await findImage(t.db, image.uuid)).toEqual(before);
    expect((await admin('PATCH', `/images/${randomUUID()}`, { name: 'x' })).status).toBe(404);
    const refusedCodes = cases.map(([body]) => String(body.code));
    const made = await t.db.selectFrom('images').select('code').where('code', 'in', refusedCodes).execute();
    expect(made).toEqual([]);
  });

  it('refuses a second image of one code, also when two are created at once', async () => {
    const fields = newImage();
    expect((await admin('POST', '/images', fields)).status).toBe(201);
    const again = await admin('POST', '/images', fields);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('SVC-CONFLICT-409');
    const racing = newImage();
    const statuses = await Promise.all([admin('POST', '/images', racing), admin('POST', '/images', racing)]);
    expect(statusesOf(statuses)).toEqual([201, 409]);
  });

  it('two deletes of one image at once: one deletes it, the other finds nothing', async () => {
    const { attributes: image } = (await admin('POST', '/images', newImage())).body;
    const both = await Promise.all([
      admin('DELETE', `/images/${image.uuid}`),
      admin('DELETE', `/images/${image.uuid}`),
    ]);
    expect(statusesOf(both)).toEqual([204, 404]);
    expect(await findImage(t.db, image.uuid)).toBeUndefined();
  });

  it('refuses to delete an image an instance was made from, and deletes it once the instance is deleted', async () => {
    const { attributes: image } = (await admin('POST', '/images', newImage())).body;
    const instance = await instanceFrom(image.uuid);
    await expectInUseTwice(admin, `/images/${image.uuid}`, 'The image is used by 1 instance.');
    await t.db.updateTable('instances').set({ status: 'deleted' }).where('id', '=', instance.id).execute();
    expect((await admin('DELETE', `/images/${image.uuid}`)).status).toBe(204);
    const kept = await t.db
      .selectFrom('instances')
      .select('image_id')
      .where('id', '=', instance.id)
      .executeTakeFirst();
    expect(kept).toEqual({ image_id: null });
  });

  it('refuses to delete an image a running rebuild writes', async () => {
    const { attributes: from } = (await admin('POST', '/images', newImage())).body;
    const { attributes: to } = (await admin('POST', '/images', newImage())).body;
    const instance = await instanceFrom(from.uuid);
    // No worker runs here: the rebuild's operation stays running.
    const rebuild = await customer('POST', `/${instance.id}/rebuild`, { image: to.code });
    expect(rebuild.status).toBe(202);
    const refused = await admin('DELETE', `/images/${to.uuid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toBe('The image is used by 1 running rebuild.');
    expect(await findImage(t.db, to.uuid)).toBeDefined();
  });

  it('deleted while a customer rebuilds onto it: the rebuild is refused naming the image, and starts nothing', async () => {
    const { attributes: from } = (await admin('POST', '/images', newImage())).body;
    const { attributes: to } = (await admin('POST', '/images', newImage())).body;
    const instance = await instanceFrom(from.uuid);
    // The delete holds the image's row until it commits; the rebuild meanwhile found it by code.
    let commit!: () => void;
    const held = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let rowHeld!: () => void;
    const deleted = new Promise<void>((resolve) => {
      rowHeld = resolve;
    });
    const deleting = t.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('images').where('id', '=', to.uuid).execute();
      rowHeld();
      await held;
    });
    // The rebuild is sent once the delete holds the row, not before: sent first, it could lock the
    // row ahead of the delete on a busy machine, and rightly go on.
    await deleted;
    const rebuilding = customer('POST', `/${instance.id}/rebuild`, { image: to.code });
    await new Promise((resolve) => setTimeout(resolve, 500));
    commit();
    await deleting;
    const rebuild = await rebuilding;
    expect(rebuild.status).toBe(400);
    expect(rebuild.body.errors[0].source).toEqual({ field: 'image' });
    const operations = await t.db
      .selectFrom('instance_operations')
      .select('id')
      .where('instance_id', '=', instance.id)
      .execute();
    expect(operations).toEqual([]);
    const shown = await customer('GET', `/${instance.id}`);
    expect(shown.body.attributes.status).toBe('running');
  });

  it('are not for customers: a client key is refused, and no key', async () => {
    expect((await t.call(t.client, 'POST', '/api/application/cloudsvc/images', newImage())).status).toBe(403);
    expect((await t.call(null, 'GET', '/api/application/cloudsvc/images')).status).toBe(401);
  });
});
