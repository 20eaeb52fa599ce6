import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';

/** The Application API's volumes: every customer's, and what an administrator does with them. */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.env.admin.call(method, `/api/application/cloudsvc${path}`, body);

const settled = (id: string) =>
  eventually(
    async () => {
      const v = (await admin('GET', `/volumes/${id}`)).body.attributes;
      return ['available', 'attached'].includes(v.state) ? v : undefined;
    },
    20_000,
    'the volume to settle',
  );

describe('volumes', () => {
  it('creates one for a customer, attaches, grows and detaches it; lists every customer’s with filters; logs the administrator', async () => {
    const name = `admin-${randomUUID().slice(0, 8)}`;
    const made = await admin('POST', '/volumes', {
      user: t.env.client.id,
      name,
      location: t.location.code,
      size_mb: 2048,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const volume = made.body.attributes;
    expect(volume).toMatchObject({
      user: t.env.client.id,
      hypervisor: null,
      provisioned_mb: null,
      state: 'available',
    });
    // The customer sees it as theirs.
    expect((await t.api('GET', `/volumes/${volume.uuid}`)).body.attributes.name).toBe(name);
    const theirs = await t.env.stranger.call('POST', '/api/client/cloud/volumes', {
      name,
      location: t.location.code,
      size_mb: 1024,
    });
    expect(theirs.status).toBe(201);

    const { id } = await t.instance();
    const attached = await admin('POST', `/volumes/${volume.uuid}/attach`, { instance: id });
    expect(attached.status, JSON.stringify(attached.body)).toBe(202);
    await t.settled(id);
    expect(await settled(volume.uuid)).toMatchObject({
      state: 'attached',
      instance: id,
      provisioned_mb: 2048,
    });
    expect((await admin('GET', `/volumes/${volume.uuid}`)).body.attributes.hypervisor).toEqual(
      expect.any(String),
    );
    expect((await admin('POST', `/volumes/${volume.uuid}/resize`, { size_mb: 3072 })).status).toBe(202);
    await t.settled(id);
    expect(await settled(volume.uuid)).toMatchObject({ size_mb: 3072, provisioned_mb: 3072 });

    const onInstance = await admin('GET', `/volumes?instance=${id}`);
    expect(onInstance.body.data.map((v: Body) => v.attributes.uuid)).toEqual([volume.uuid]);
    const strangers = await admin('GET', `/volumes?user=${t.env.stranger.id}&location=${t.location.code}`);
    expect(strangers.body.data.map((v: Body) => v.attributes.uuid)).toEqual([theirs.body.attributes.uuid]);
    expect((await admin('GET', '/volumes?location=nowhere')).body.meta.pagination.total).toBe(0);

    // Another customer's volume does not go on this customer's instance.
    const crossed = await admin('POST', `/volumes/${theirs.body.attributes.uuid}/attach`, { instance: id });
    expect(crossed.status).toBe(409);
    expect(crossed.body.errors[0].code).toBe('SVC-CONFLICT-409');

    expect((await admin('POST', `/volumes/${volume.uuid}/detach`)).status).toBe(202);
    await t.settled(id);
    expect(await settled(volume.uuid)).toMatchObject({ state: 'available', instance: null });
    const logged = await t.env.db
      .selectFrom('activity_log')
      .select(['event', 'actor', 'user_id'])
      .where('event', 'like', 'volume.%')
      .where(({ eb, ref }) => eb(ref('detail', '->>').key('volume_id' as never), '=', volume.uuid))
      .orderBy('id')
      .execute();
    expect(logged.map((l) => l.event)).toEqual([
      'volume.created',
      'volume.attaching',
      'volume.resized',
      'volume.detaching',
    ]);
    expect(logged.every((l) => l.user_id === t.env.client.id && l.actor.startsWith('admin'))).toBe(true);

    // The stranger's, never attached, is deleted at once; twice is 404.
    const strangersId = theirs.body.attributes.uuid;
    expect((await admin('DELETE', `/volumes/${strangersId}`)).status).toBe(204);
    expect((await admin('GET', `/volumes/${strangersId}`)).status).toBe(404);
    expect((await admin('DELETE', `/volumes/${strangersId}`)).status).toBe(404);
  });

  it('refuses an unknown customer and bad input, creating nothing; an unknown volume is 404; a client key is refused', async () => {
    const count = async () => (await admin('GET', '/volumes?per_page=1')).body.meta.pagination.total;
    const before = await count();
    const unknown = await admin('POST', '/volumes', {
      user: randomUUID(),
      name: 'x',
      location: t.location.code,
      size_mb: 2048,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400' });
    const bad = await admin('POST', '/volumes', {
      user: t.env.client.id,
      name: 'x',
      location: t.location.code,
    });
    expect(bad.status).toBe(400);
    expect(await count()).toBe(before);
    expect((await admin('GET', `/volumes/${randomUUID()}`)).status).toBe(404);
    expect((await admin('POST', `/volumes/${randomUUID()}/detach`)).status).toBe(404);
    const asClient = await t.env.client.call('GET', '/api/application/cloudsvc/volumes');
    expect([401, 403]).toContain(asClient.status);
  });

  it('lists every library’s ISOs with filters', async () => {
    const { id } = await t.instance();
    // A URL the agent cannot reach here: the fetch fails, and the list says why.
    const added = await t.api('POST', `/${id}/media/iso`, { name: 'far', url: 'https://iso.invalid/a.iso' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const failed = await eventually(
      async () => {
        const page = (await admin('GET', `/isos?instance=${id}&state=failed`)).body;
        return page.data.length === 1 ? page.data[0].attributes : undefined;
      },
      20_000,
      'the fetch to fail',
    );
    expect(failed).toMatchObject({
      uuid: added.body.attributes.uuid,
      user: t.env.client.id,
      instance: id,
      hypervisor: expect.any(String),
      state: 'failed',
      error: { code: expect.any(String) },
    });
    expect((await admin('GET', `/isos?user=${t.env.stranger.id}`)).body.data).toEqual([]);
    expect((await admin('GET', '/isos?state=lost')).status).toBe(400);
  });
});
