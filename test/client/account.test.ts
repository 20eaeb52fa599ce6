import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack.js';
import { KEYS } from './ssh-key-fixtures.js';

/** A customer finds themselves: their user uuid, name and the limits in force (docs/api.md "Account"). */
let t: Stack;

beforeAll(async () => {
  t = await startStack({ config: { SSH_KEYS_MAX_PER_USER: '5', MAX_VOLUMES_PER_USER: '3' } });
});
afterAll(() => t.close());

describe('GET /account', () => {
  it('answers the caller’s own account and the limits this panel enforces, the same when asked again', async () => {
    const first = await t.call(t.client, 'GET', '/api/client/cloud/account');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      object: 'account',
      attributes: {
        uuid: t.client.id,
        limits: { ssh_keys: 5, volumes: 3, volumes_per_instance: 8 },
      },
    });
    const again = await t.call(t.client, 'GET', '/api/client/cloud/account');
    expect(again.body).toEqual(first.body);
  });

  it('is each caller’s own: two customers at once see themselves', async () => {
    const [mine, theirs] = await Promise.all([
      t.call(t.client, 'GET', '/api/client/cloud/account'),
      t.call(t.stranger, 'GET', '/api/client/cloud/account'),
    ]);
    expect(mine.body.attributes.uuid).toBe(t.client.id);
    expect(theirs.body.attributes.uuid).toBe(t.stranger.id);
  });

  it('enforces the limit it shows: one SSH key past `ssh_keys` is refused', async () => {
    const { limits } = (await t.call(t.stranger, 'GET', '/api/client/cloud/account')).body.attributes;
    const lines = Object.values(KEYS).map((k) => k.line);
    expect(lines.length).toBeGreaterThan(limits.ssh_keys);
    const answers = [];
    for (const [i, line] of lines.slice(0, limits.ssh_keys + 1).entries()) {
      answers.push(
        (await t.call(t.stranger, 'POST', '/api/client/cloud/ssh-keys', { name: `k${i}`, public_key: line }))
          .status,
      );
    }
    expect(answers.slice(0, limits.ssh_keys).every((s) => s === 201)).toBe(true);
    expect(answers.at(-1)).toBe(409);
  });

  it('refuses another type of key, naming the one it takes', async () => {
    const refused = await t.call(t.admin, 'GET', '/api/client/cloud/account');
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].detail).toContain('client key');
  });
});
