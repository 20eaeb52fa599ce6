import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertImage } from '../../db/repositories/catalogue/catalog.js';
import { isolatedDatabase } from '../support/database.js';
import { type Body, bearer, json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/** Images on a database of this file's own: the list's totals are exact. */
const database = await isolatedDatabase();
let t: Stack;
let key: string;

beforeAll(async () => {
  t = await startStack({ config: { DATABASE_URL: database.url } });
  const user = await seed.user(t.db);
  key = await seed.key(t.db, user.id, 'client');
  await upsertImage(t.db, {
    code: 'ubuntu-24.04',
    name: 'Ubuntu 24.04',
    os_family: 'ubuntu',
    min_disk_mb: 4096,
  });
  await upsertImage(t.db, { code: 'debian-12', name: 'Debian 12', os_family: 'debian', min_disk_mb: 2048 });
  await upsertImage(t.db, { code: 'alma-9', name: 'AlmaLinux 9', os_family: 'rhel', min_disk_mb: 10240 });
  const hidden = await upsertImage(t.db, {
    code: 'internal',
    name: 'Internal',
    os_family: 'debian',
    min_disk_mb: 1,
  });
  await t.db.updateTable('images').set({ is_public: false }).where('id', '=', hidden.id).execute();
});
afterAll(async () => {
  await t.close();
  await database.drop();
});

const names = (body: Body) => body.data.map((image: Body) => image.attributes.name);

describe('GET /api/client/cloud/images', () => {
  it('lists the public images by name, with their fields', async () => {
    const res = await t.app.request('/api/client/cloud/images', { headers: bearer(key) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(names(body)).toEqual(['AlmaLinux 9', 'Debian 12', 'Ubuntu 24.04']);
    expect(body.data[1]).toEqual({
      object: 'image',
      attributes: {
        uuid: expect.any(String),
        code: 'debian-12',
        name: 'Debian 12',
        os_family: 'debian',
        min_disk_mb: 2048,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    });
    expect(body.meta.pagination).toEqual({
      total: 3,
      count: 3,
      per_page: 25,
      current_page: 1,
      total_pages: 1,
    });
  });

  it('paginates', async () => {
    const page2 = await json(
      await t.app.request('/api/client/cloud/images?per_page=2&page=2', { headers: bearer(key) }),
    );
    expect(names(page2)).toEqual(['Ubuntu 24.04']);
    expect(page2.meta.pagination).toEqual({
      total: 3,
      count: 1,
      per_page: 2,
      current_page: 2,
      total_pages: 2,
    });
  });

  it('refuses bad pagination with the fields named', async () => {
    const res = await t.app.request('/api/client/cloud/images?per_page=0&page=x', { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect((await json(res)).errors.map((e: Body) => e.source.field).sort()).toEqual(['page', 'per_page']);
  });

  it('is not taken for an instance id by GET /{cloudInstance}, nor are the SSH keys', async () => {
    // Registered after the instance routes, these would answer 404 (not a UUID) instead.
    for (const path of ['/images', '/ssh-keys']) {
      const res = await t.app.request(`/api/client/cloud${path}`, { headers: bearer(key) });
      expect(res.status, path).toBe(200);
      expect((await json(res)).object).toBe('list');
    }
    const instance = await t.app.request(`/api/client/cloud/${randomUUID()}`, { headers: bearer(key) });
    expect(instance.status).toBe(404);
  });
});
