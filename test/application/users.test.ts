import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUser } from '../../db/repositories/accounts/users.js';
import { allPages } from '../support/http.js';
import { expectFieldRefusals, statusesOf } from '../support/refusals.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
beforeAll(async () => {
  // With the lookup cache on, as in production: the process that takes a change forgets it at once.
  t = await startStack({ config: { AUTH_CACHE_TTL_MS: '60000' } });
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

const newUser = (overrides: Record<string, unknown> = {}) => ({
  email: `user-${randomUUID().slice(0, 8)}@example.test`,
  name: 'Ada Lovelace',
  ...overrides,
});

/** A user made through the API, with a client key issued through the API. */
async function customerWithKey() {
  const { attributes: user } = (await admin('POST', '/users', newUser())).body;
  const key = await admin('POST', `/users/${user.uuid}/keys`, { type: 'client', label: 'laptop' });
  expect(key.status).toBe(201);
  return { user, key: key.body.attributes };
}
const asCustomer = (token: string) => t.call(token, 'GET', '/api/client/cloud');

describe('users of the Application API', () => {
  it('are created, shown, found by email and renamed; a key issued to one works, once shown', async () => {
    const fields = newUser({ email: `Mixed-${randomUUID().slice(0, 8)}@Example.TEST` });
    const created = await admin('POST', '/users', fields);
    expect(created.status).toBe(201);
    const user = created.body.attributes;
    expect(user).toMatchObject({
      email: fields.email.toLowerCase(),
      name: 'Ada Lovelace',
      is_admin: false,
      disabled: false,
      disabled_at: null,
    });
    expect((await admin('GET', `/users/${user.uuid}`)).body.attributes).toEqual(user);
    const found = await allPages((page) =>
      admin(
        'GET',
        `/users?email=${encodeURIComponent(fields.email.slice(0, 14).toUpperCase())}&page=${page}`,
      ),
    );
    expect(found.map((u) => u.attributes.uuid)).toEqual([user.uuid]);
    const renamed = await admin('PATCH', `/users/${user.uuid}`, { name: 'Ada King' });
    expect(renamed.body.attributes).toEqual({ ...user, name: 'Ada King' });

    const key = await admin('POST', `/users/${user.uuid}/keys`, { type: 'client', label: 'laptop' });
    expect(key.status).toBe(201);
    expect((await asCustomer(key.body.attributes.token)).status).toBe(200);
    const listed = (await admin('GET', `/users/${user.uuid}/keys`)).body.data;
    expect(listed.map((k: { attributes: unknown }) => k.attributes)).toEqual([
      expect.objectContaining({
        uuid: key.body.attributes.uuid,
        type: 'client',
        label: 'laptop',
        revoked: false,
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(key.body.attributes.token);

    // Two issued at once: two keys, each its own and each working.
    const both = await Promise.all([
      admin('POST', `/users/${user.uuid}/keys`, { type: 'client' }),
      admin('POST', `/users/${user.uuid}/keys`, { type: 'client' }),
    ]);
    expect(statusesOf(both)).toEqual([201, 201]);
    const [first, second] = both.map((r) => r.body.attributes);
    expect(first.uuid).not.toBe(second.uuid);
    for (const issued of [first, second]) expect((await asCustomer(issued.token)).status).toBe(200);
    expect((await admin('GET', `/users/${user.uuid}/keys`)).body.data).toHaveLength(3);
  });

  it('a disabled user’s keys are refused at once, and work again once enabled; the user stays', async () => {
    const { user, key } = await customerWithKey();
    expect((await asCustomer(key.token)).status).toBe(200);
    const disabled = await admin('PATCH', `/users/${user.uuid}`, { disabled: true });
    expect(disabled.body.attributes).toMatchObject({ disabled: true });
    // Twice: the first time is kept.
    const again = await admin('PATCH', `/users/${user.uuid}`, { disabled: true });
    expect(again.body.attributes.disabled_at).toBe(disabled.body.attributes.disabled_at);
    expect((await asCustomer(key.token)).status).toBe(401);
    const enabled = await admin('PATCH', `/users/${user.uuid}`, { disabled: false });
    expect(enabled.body.attributes).toMatchObject({ disabled: false, disabled_at: null });
    expect((await asCustomer(key.token)).status).toBe(200);
  });

  it('issues application keys only to administrators; a demoted one’s stop working', async () => {
    const { attributes: user } = (await admin('POST', '/users', newUser())).body;
    const refused = await admin('POST', `/users/${user.uuid}/keys`, { type: 'application' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].source).toEqual({ field: 'type' });
    expect((await admin('GET', `/users/${user.uuid}/keys`)).body.data).toEqual([]);

    await admin('PATCH', `/users/${user.uuid}`, { is_admin: true });
    const key = (await admin('POST', `/users/${user.uuid}/keys`, { type: 'application' })).body.attributes;
    const asNewAdmin = () => t.call(key.token, 'GET', '/api/application/cloudsvc/users');
    expect((await asNewAdmin()).status).toBe(200);
    await admin('PATCH', `/users/${user.uuid}`, { is_admin: false });
    expect((await asNewAdmin()).status).toBe(401);
  });

  it('an administrator cannot disable or demote themselves', async () => {
    for (const change of [{ disabled: true }, { is_admin: false }]) {
      const refused = await admin('PATCH', `/users/${t.admin.id}`, change);
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('SVC-CONFLICT-409');
    }
    expect(await findUser(t.db, t.admin.id)).toMatchObject({ is_admin: true, disabled_at: null });
  });

  it('revokes a key: refused at once, listed as revoked; two revokes at once, one answers 404', async () => {
    const { user, key } = await customerWithKey();
    const both = await Promise.all([
      admin('DELETE', `/users/${user.uuid}/keys/${key.uuid}`),
      admin('DELETE', `/users/${user.uuid}/keys/${key.uuid}`),
    ]);
    expect(statusesOf(both)).toEqual([204, 404]);
    expect((await asCustomer(key.token)).status).toBe(401);
    const listed = (await admin('GET', `/users/${user.uuid}/keys`)).body.data;
    expect(listed[0].attributes).toMatchObject({ uuid: key.uuid, revoked: true });
    // Another user's key by this user's path is not found, and stays live.
    const other = await customerWithKey();
    expect((await admin('DELETE', `/users/${user.uuid}/keys/${other.key.uuid}`)).status).toBe(404);
    expect((await asCustomer(other.key.token)).status).toBe(200);
  });

  it('refuses bad input naming the field, one email twice (also at once), and changes nothing', async () => {
    await expectFieldRefusals(
      (body) => admin('POST', '/users', body),
      [
        [newUser({ email: 'not-an-email' }), 'email'],
        [newUser({ email: 'a b@example.test' }), 'email'],
        [newUser({ email: 'ada\u009b@example.test' }), 'email'],
        [newUser({ name: '' }), 'name'],
        [newUser({ is_admin: 'yes' }), 'is_admin'],
        [newUser({ password: 'x' }), 'password'],
      ],
    );
    const { attributes: user } = (await admin('POST', '/users', newUser())).body;
    const before = await findUser(t.db, user.uuid);
    await expectFieldRefusals(
      (body) => admin('PATCH', `/users/${user.uuid}`, body),
      [
        [{ email: 'other@example.test' }, 'email'],
        [{ disabled: 'no' }, 'disabled'],
      ],
    );
    await expectFieldRefusals(
      (body) => admin('POST', `/users/${user.uuid}/keys`, body),
      [
        [{ type: 'agent' }, 'type'],
        [{ type: 'client', label: '' }, 'label'],
      ],
    );
    expect(await findUser(t.db, user.uuid)).toEqual(before);
    expect((await admin('GET', `/users/${user.uuid}/keys`)).body.data).toEqual([]);
    expect((await admin('PATCH', `/users/${randomUUID()}`, { name: 'x' })).status).toBe(404);
    // A search holding a control character is refused, as every other text input.
    expect((await admin('GET', '/users?email=%C2%9B31m')).status).toBe(400);
    expect((await admin('POST', `/users/${randomUUID()}/keys`, { type: 'client' })).status).toBe(404);

    const fields = newUser();
    const both = await Promise.all([admin('POST', '/users', fields), admin('POST', '/users', fields)]);
    expect(statusesOf(both)).toEqual([201, 409]);
  });

  it('are not for customers: a client key is refused, and no key', async () => {
    expect((await t.call(t.client, 'POST', '/api/application/cloudsvc/users', newUser())).status).toBe(403);
    expect((await t.call(null, 'GET', '/api/application/cloudsvc/users')).status).toBe(401);
  });
});
