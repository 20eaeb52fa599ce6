import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSshKeysOfUser } from '../../db/repositories/accounts/ssh-keys.js';
import { isolatedDatabase, tableDigest } from '../support/database.js';
import { type Body, bearer, json, jsonHeaders } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { KEYS, REFUSED_KEYS } from './ssh-key-fixtures.js';

/**
 * SSH keys on a database of this file's own, so that a refused request can be shown to have
 * changed nothing at all. The per-account limit is 3 here, so that reaching it is cheap.
 */
const database = await isolatedDatabase();
let t: Stack;

beforeAll(async () => {
  t = await startStack({ config: { DATABASE_URL: database.url, SSH_KEYS_MAX_PER_USER: '3' } });
});
afterAll(async () => {
  await t.close();
  await database.drop();
});

async function customer() {
  const user = await seed.user(t.db);
  return { id: user.id, key: await seed.key(t.db, user.id, 'client') };
}

const BASE = '/api/client/cloud/ssh-keys';

const create = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.request(BASE, {
    method: 'POST',
    headers: { ...jsonHeaders(key), ...headers },
    body: JSON.stringify(body),
  });
const rename = (key: string, id: string, body: unknown) =>
  t.app.request(`${BASE}/${id}`, { method: 'PATCH', headers: jsonHeaders(key), body: JSON.stringify(body) });
const remove = (key: string, id: string) =>
  t.app.request(`${BASE}/${id}`, { method: 'DELETE', headers: bearer(key) });
const list = async (key: string, query = '') =>
  json(await t.app.request(`${BASE}${query}`, { headers: bearer(key) }));

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /ssh-keys', () => {
  it('adds a key and shows its SHA-256 fingerprint as ssh-keygen prints it, comment kept', async () => {
    const me = await customer();
    const res = await create(me.key, { name: 'laptop', public_key: KEYS.ed25519.line });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toEqual({
      object: 'ssh_key',
      attributes: {
        uuid: expect.any(String),
        name: 'laptop',
        fingerprint: KEYS.ed25519.fingerprint,
        public_key: KEYS.ed25519.line,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    const stored = await findSshKeysOfUser(t.db, me.id, [body.attributes.uuid]);
    expect(stored.map((k) => [k.name, k.fingerprint, k.public_key])).toEqual([
      ['laptop', KEYS.ed25519.fingerprint, KEYS.ed25519.line],
    ]);
  });

  it('accepts every supported type with the fingerprint OpenSSH gives it', async () => {
    const types = [KEYS.ecdsa256, KEYS.ecdsa384, KEYS.ecdsa521, KEYS.rsa2048, KEYS.rsa4096];
    for (const [index, fixture] of types.entries()) {
      // Three keys per account here: each key on an account of its own.
      const me = await customer();
      const res = await create(me.key, { name: `key-${index}`, public_key: fixture.line });
      expect(res.status, fixture.line.slice(0, 30)).toBe(201);
      const body = await json(res);
      expect(body.attributes.fingerprint).toBe(fixture.fingerprint);
      expect(body.attributes.public_key).toBe(fixture.line);
    }
  });

  it('keeps a comment with spaces, and stores surrounding and repeated spaces as single ones', async () => {
    const me = await customer();
    const [type, blob] = KEYS.ed25519.line.split(' ');
    const res = await create(me.key, {
      name: '  spaced  ',
      public_key: `  ${type}   ${blob}   my work key  `,
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.attributes.name).toBe('spaced');
    expect(body.attributes.public_key).toBe(`${type} ${blob} my work key`);
    expect(body.attributes.fingerprint).toBe(KEYS.ed25519.fingerprint);
  });

  it('accepts a key without a comment', async () => {
    const me = await customer();
    const bare = KEYS.ed25519.line.split(' ').slice(0, 2).join(' ');
    const res = await create(me.key, { name: 'bare', public_key: bare });
    expect(res.status).toBe(201);
    expect((await json(res)).attributes.public_key).toBe(bare);
  });

  const [edType, edBlob] = KEYS.ed25519.line.split(' ') as [string, string];
  const rsaBlob = KEYS.rsa2048.line.split(' ')[1]!;
  const refused: [string, unknown, RegExp][] = [
    ['RSA under 2048 bits', REFUSED_KEYS.rsa1024, /at least 2048 bits; this one has 1024/],
    ['DSA', REFUSED_KEYS.dsa, /DSA keys are not accepted/],
    ['an unknown type', `ssh-foo ${edBlob}`, /Unsupported key type/],
    ['a security-key type', `sk-ssh-ed25519@openssh.com ${edBlob}`, /Unsupported key type/],
    ['a blob of another type than declared', `ssh-rsa ${edBlob}`, /another type than the one the key names/],
    ['an ed25519 line holding an RSA blob', `${edType} ${rsaBlob}`, /another type/],
    ['a truncated blob', `${edType} ${edBlob.slice(0, 40)}`, /base64|truncated/],
    [
      'trailing bytes in the blob',
      `${edType} ${Buffer.concat([Buffer.from(edBlob, 'base64'), Buffer.from([0, 0, 0, 0])]).toString('base64')}`,
      /trailing bytes/,
    ],
    ['characters that are not base64', `${edType} ${edBlob.slice(0, -4)}!!!!`, /base64/],
    ['no key data', edType, /OpenSSH public key/],
    ['a private key', '-----BEGIN OPENSSH PRIVATE KEY-----', /OpenSSH public key|Unsupported/],
    ['authorized_keys options', `no-pty ${KEYS.ed25519.line}`, /Unsupported key type/],
    ['a line break inside', `${KEYS.ed25519.line}\n${KEYS.rsa2048.line}`, /control characters/],
    ['an empty string', '', /./],
    ['a number', 42, /./],
  ];
  for (const [what, publicKey, detail] of refused) {
    it(`refuses ${what} with 400 naming public_key, and changes nothing`, async () => {
      const me = await customer();
      const before = await tableDigest(t.db);
      const res = await create(me.key, { name: 'bad', public_key: publicKey });
      expect(res.status).toBe(400);
      const body = await json(res);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({
        code: 'SVC-REQ-400',
        status: 400,
        source: { field: 'public_key' },
      });
      expect(body.errors[0].detail).toMatch(detail);
      expect(body.support_id).toMatch(/^sup_/);
      expect(await tableDigest(t.db)).toEqual(before);
    });
  }

  it('refuses a bad name with 400 naming it, and changes nothing', async () => {
    const me = await customer();
    const before = await tableDigest(t.db);
    for (const name of ['', '   ', 'x'.repeat(101), 'tab\there', 'nul\u0000']) {
      const res = await create(me.key, { name, public_key: KEYS.ed25519.line });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect((await json(res)).errors.map((e: Body) => e.source.field)).toEqual(['name']);
    }
    const missing = await create(me.key, {});
    expect((await json(missing)).errors.map((e: Body) => e.source.field).sort()).toEqual([
      'name',
      'public_key',
    ]);
    expect(await tableDigest(t.db)).toEqual(before);
  });

  it('refuses a second key of the same name with 409, twice in a row', async () => {
    const me = await customer();
    expect((await create(me.key, { name: 'laptop', public_key: KEYS.ed25519.line })).status).toBe(201);
    const again = await create(me.key, { name: 'laptop', public_key: KEYS.ed25519Second.line });
    expect(again.status).toBe(409);
    const body = await json(again);
    expect(body.errors[0]).toMatchObject({
      code: 'SVC-CONFLICT-409',
      detail: 'An SSH key with this name already exists.',
    });
    expect((await list(me.key)).meta.pagination.total).toBe(1);
  });

  it('refuses the same key twice for one user, under another name or another comment', async () => {
    const me = await customer();
    expect((await create(me.key, { name: 'one', public_key: KEYS.ed25519.line })).status).toBe(201);
    const sameKey = `${KEYS.ed25519.line.split(' ').slice(0, 2).join(' ')} other comment`;
    const res = await create(me.key, { name: 'two', public_key: sameKey });
    expect(res.status).toBe(409);
    expect((await json(res)).errors[0]).toMatchObject({
      code: 'SVC-CONFLICT-409',
      detail: 'This key is already on your account.',
    });
  });

  it('lets two users hold the same key under the same name', async () => {
    const [a, b] = [await customer(), await customer()];
    expect((await create(a.key, { name: 'laptop', public_key: KEYS.ed25519.line })).status).toBe(201);
    expect((await create(b.key, { name: 'laptop', public_key: KEYS.ed25519.line })).status).toBe(201);
  });

  it('of two creates with one name at once, exactly one wins', async () => {
    const me = await customer();
    const responses = await Promise.all([
      create(me.key, { name: 'race', public_key: KEYS.ed25519.line }),
      create(me.key, { name: 'race', public_key: KEYS.ed25519Second.line }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await list(me.key)).data.map((k: Body) => k.attributes.name)).toEqual(['race']);
  });

  it('of two creates of one key at once, exactly one wins', async () => {
    const me = await customer();
    const responses = await Promise.all([
      create(me.key, { name: 'a', public_key: KEYS.ed25519.line }),
      create(me.key, { name: 'b', public_key: KEYS.ed25519.line }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await list(me.key)).meta.pagination.total).toBe(1);
  });

  it('holds the per-account limit, also against creates at once', async () => {
    const me = await customer();
    expect((await create(me.key, { name: 'k1', public_key: KEYS.ed25519.line })).status).toBe(201);
    const racing = await Promise.all([
      create(me.key, { name: 'k2', public_key: KEYS.ed25519Second.line }),
      create(me.key, { name: 'k3', public_key: KEYS.ecdsa256.line }),
      create(me.key, { name: 'k4', public_key: KEYS.rsa2048.line }),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 409]);
    const refused = racing.find((r) => r.status === 409)!;
    expect((await json(refused)).errors[0]).toMatchObject({
      code: 'SVC-CONFLICT-409',
      detail: 'An account holds at most 3 SSH keys; delete one first.',
    });
    expect((await list(me.key)).meta.pagination.total).toBe(3);
  });

  it('records the addition in the activity log with the request id', async () => {
    const me = await customer();
    const requestId = `req-${randomUUID()}`;
    const res = await create(
      me.key,
      { name: 'logged', public_key: KEYS.ed25519.line },
      { 'X-Request-Id': requestId },
    );
    const uuid = (await json(res)).attributes.uuid;
    const entries = await t.db
      .selectFrom('activity_log')
      .select(['actor', 'event', 'detail', 'correlation_id', 'instance_id'])
      .where('user_id', '=', me.id)
      .execute();
    expect(entries).toEqual([
      {
        actor: `user:${me.id}`,
        event: 'ssh_key.created',
        detail: { ssh_key_id: uuid, name: 'logged', fingerprint: KEYS.ed25519.fingerprint },
        correlation_id: requestId,
        instance_id: null,
      },
    ]);
  });
});

describe('GET /ssh-keys', () => {
  it("lists only the caller's keys, by name, paginated", async () => {
    const [me, other] = [await customer(), await customer()];
    await create(me.key, { name: 'zeta', public_key: KEYS.ed25519.line });
    await create(me.key, { name: 'alpha', public_key: KEYS.rsa2048.line });
    await create(me.key, { name: 'mid', public_key: KEYS.ecdsa256.line });
    await create(other.key, { name: 'not-mine', public_key: KEYS.ed25519Second.line });

    const first = await list(me.key, '?per_page=2');
    expect(first.object).toBe('list');
    expect(first.data.map((k: Body) => k.attributes.name)).toEqual(['alpha', 'mid']);
    expect(first.data[0]).toMatchObject({
      object: 'ssh_key',
      attributes: { fingerprint: KEYS.rsa2048.fingerprint },
    });
    expect(first.meta.pagination).toEqual({
      total: 3,
      count: 2,
      per_page: 2,
      current_page: 1,
      total_pages: 2,
    });
    const second = await list(me.key, '?per_page=2&page=2');
    expect(second.data.map((k: Body) => k.attributes.name)).toEqual(['zeta']);
  });

  it('refuses bad pagination with the fields named', async () => {
    const me = await customer();
    const res = await t.app.request(`${BASE}?page=0&per_page=101`, { headers: bearer(me.key) });
    expect(res.status).toBe(400);
    expect((await json(res)).errors.map((e: Body) => e.source.field).sort()).toEqual(['page', 'per_page']);
  });
});

describe('PATCH /ssh-keys/{keyUuid}', () => {
  async function withKey() {
    const me = await customer();
    const res = await create(me.key, { name: 'old', public_key: KEYS.ed25519.line });
    return { me, key: (await json(res)).attributes };
  }

  it('renames the key; the same rename twice in a row answers the same', async () => {
    const { me, key } = await withKey();
    const first = await rename(me.key, key.uuid, { name: 'new' });
    expect(first.status).toBe(200);
    const renamed = await json(first);
    expect(renamed.attributes).toMatchObject({ uuid: key.uuid, name: 'new', public_key: KEYS.ed25519.line });
    expect(Date.parse(renamed.attributes.updated_at)).toBeGreaterThanOrEqual(Date.parse(key.updated_at));
    const second = await rename(me.key, key.uuid, { name: 'new' });
    expect(second.status).toBe(200);
    // Renaming to the name it has changes nothing, not even the time it last changed.
    expect(await json(second)).toEqual(renamed);
  });

  it('refuses a name another key of the account has, and changes nothing', async () => {
    const { me, key } = await withKey();
    await create(me.key, { name: 'taken', public_key: KEYS.rsa2048.line });
    const res = await rename(me.key, key.uuid, { name: 'taken' });
    expect(res.status).toBe(409);
    expect((await json(res)).errors[0].code).toBe('SVC-CONFLICT-409');
    expect((await list(me.key)).data.map((k: Body) => k.attributes.name)).toEqual(['old', 'taken']);
  });

  it('refuses a bad name with 400 naming it, and changes nothing', async () => {
    const { me, key } = await withKey();
    const before = await tableDigest(t.db);
    for (const body of [{ name: '' }, { name: 'x'.repeat(101) }, {}, { name: 7 }]) {
      const res = await rename(me.key, key.uuid, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).errors[0]).toMatchObject({ code: 'SVC-REQ-400', source: { field: 'name' } });
    }
    expect(await tableDigest(t.db)).toEqual(before);
  });

  it("answers another user's key exactly like an unknown one, and leaves it alone", async () => {
    const { me, key } = await withKey();
    const stranger = await customer();
    const foreign = await rename(stranger.key, key.uuid, { name: 'mine-now' });
    const unknown = await rename(stranger.key, randomUUID(), { name: 'mine-now' });
    expect(foreign.status).toBe(404);
    expect((await json(foreign)).errors).toEqual((await json(unknown)).errors);
    expect((await list(me.key)).data[0].attributes.name).toBe('old');
  });

  it('of two renames of two keys to one name at once, exactly one wins', async () => {
    const { me, key } = await withKey();
    const other = (await json(await create(me.key, { name: 'other', public_key: KEYS.rsa2048.line })))
      .attributes;
    const responses = await Promise.all([
      rename(me.key, key.uuid, { name: 'prize' }),
      rename(me.key, other.uuid, { name: 'prize' }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const names = (await list(me.key)).data.map((k: Body) => k.attributes.name).sort();
    expect(names.filter((n: string) => n === 'prize')).toHaveLength(1);
  });
});

describe('DELETE /ssh-keys/{keyUuid}', () => {
  it('deletes the key; deleting it again is 404', async () => {
    const me = await customer();
    const key = (await json(await create(me.key, { name: 'gone', public_key: KEYS.ed25519.line })))
      .attributes;
    const first = await remove(me.key, key.uuid);
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    expect((await list(me.key)).meta.pagination.total).toBe(0);
    const second = await remove(me.key, key.uuid);
    expect(second.status).toBe(404);
    expect((await json(second)).errors[0].code).toBe('SVC-RES-404');
    // The same key may be added again once it is gone.
    expect((await create(me.key, { name: 'gone', public_key: KEYS.ed25519.line })).status).toBe(201);
  });

  it('of two deletes at once, one deletes and the other finds nothing', async () => {
    const me = await customer();
    const key = (await json(await create(me.key, { name: 'once', public_key: KEYS.ed25519.line })))
      .attributes;
    const responses = await Promise.all([remove(me.key, key.uuid), remove(me.key, key.uuid)]);
    expect(responses.map((r) => r.status).sort()).toEqual([204, 404]);
    const events = await t.db
      .selectFrom('activity_log')
      .select('event')
      .where('user_id', '=', me.id)
      .where('event', '=', 'ssh_key.deleted')
      .execute();
    expect(events).toHaveLength(1);
  });

  it("answers another user's key with 404 and leaves it in place", async () => {
    const me = await customer();
    const stranger = await customer();
    const key = (await json(await create(me.key, { name: 'kept', public_key: KEYS.ed25519.line })))
      .attributes;
    expect((await remove(stranger.key, key.uuid)).status).toBe(404);
    expect((await list(me.key)).meta.pagination.total).toBe(1);
  });
});

describe('findSshKeysOfUser (for instance create)', () => {
  it('returns the keys of the user among those asked, and none of another user', async () => {
    const [me, other] = [await customer(), await customer()];
    const mine = (await json(await create(me.key, { name: 'b', public_key: KEYS.ed25519.line }))).attributes;
    const mine2 = (await json(await create(me.key, { name: 'a', public_key: KEYS.rsa2048.line }))).attributes;
    const theirs = (await json(await create(other.key, { name: 'c', public_key: KEYS.ecdsa256.line })))
      .attributes;
    const found = await findSshKeysOfUser(t.db, me.id, [mine.uuid, theirs.uuid, mine2.uuid, randomUUID()]);
    expect(found.map((k) => k.id)).toEqual([mine2.uuid, mine.uuid]);
    expect(found[0]).toMatchObject({ public_key: KEYS.rsa2048.line, fingerprint: KEYS.rsa2048.fingerprint });
    expect(await findSshKeysOfUser(t.db, me.id, [])).toEqual([]);
  });
});
