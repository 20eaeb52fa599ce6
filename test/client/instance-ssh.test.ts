import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertImage } from '../../db/repositories/catalogue/catalog.js';
import { insertInstance, setInstanceSshKeys } from '../../db/repositories/instances/instances.js';
import { bearer, json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Party, type Stack, startStack } from '../support/stack.js';
import { KEYS } from './ssh-key-fixtures.js';

let t: Stack;
let owner: Party;
let stranger: Party;
let locationId: string;

beforeAll(async () => {
  t = await startStack();
  ({ client: owner, stranger, locationId } = t);
});
afterAll(() => t.close());

async function instanceOf(fields: { osFamily?: string; ipv4?: string | null; ipv6?: string | null }) {
  const image = fields.osFamily
    ? await upsertImage(t.db, {
        code: `img-${randomUUID()}`,
        name: `Image ${fields.osFamily}`,
        os_family: fields.osFamily,
        min_disk_mb: 1024,
      })
    : undefined;
  return insertInstance(t.db, {
    user_id: owner.id,
    location_id: locationId,
    image_id: image?.id ?? null,
    name: 'web-1',
    hostname: 'web-1.example.test',
    status: 'running',
    cpu_cores: 1,
    memory_mb: 1024,
    disk_mb: 10240,
    primary_ipv4: fields.ipv4 === undefined ? '203.0.113.7' : fields.ipv4,
    primary_ipv6: fields.ipv6 ?? null,
    virtualization: 'kvm',
    boot_order: JSON.stringify(['disk']),
    timezone: 'UTC',
  });
}

const ssh = (id: string, key = owner.key) =>
  t.app.request(`/api/client/cloud/${id}/ssh`, { headers: bearer(key) });

describe('GET /{cloudInstance}/ssh', () => {
  it('gives host, port 22 and the login user of a Debian image', async () => {
    const instance = await instanceOf({ osFamily: 'debian', ipv6: '2001:db8::7' });
    const res = await ssh(instance.id);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      object: 'ssh_connection',
      attributes: { host: '203.0.113.7', port: 22, username: 'debian', keys: [] },
    });
  });

  it('lists the name and fingerprint of each key the instance was made with, by name', async () => {
    const instance = await instanceOf({ osFamily: 'debian' });
    await setInstanceSshKeys(t.db, instance.id, [
      { name: 'work', fingerprint: KEYS.rsa2048.fingerprint, public_key: KEYS.rsa2048.line },
      { name: 'laptop', fingerprint: KEYS.ed25519.fingerprint, public_key: KEYS.ed25519.line },
    ]);
    expect((await json(await ssh(instance.id))).attributes.keys).toEqual([
      { name: 'laptop', fingerprint: KEYS.ed25519.fingerprint },
      { name: 'work', fingerprint: KEYS.rsa2048.fingerprint },
    ]);
  });

  it('still lists a key the customer has deleted from the account since', async () => {
    const me = await seed.key(t.db, owner.id, 'client');
    const added = await t.app.request('/api/client/cloud/ssh-keys', {
      method: 'POST',
      headers: { Authorization: `Bearer ${me}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `gone-${randomUUID()}`, public_key: KEYS.ecdsa256.line }),
    });
    const key = (await json(added)).attributes;
    const instance = await instanceOf({ osFamily: 'ubuntu' });
    await setInstanceSshKeys(t.db, instance.id, [
      { name: key.name, fingerprint: key.fingerprint, public_key: key.public_key },
    ]);
    expect(
      (
        await t.app.request(`/api/client/cloud/ssh-keys/${key.uuid}`, {
          method: 'DELETE',
          headers: bearer(me),
        })
      ).status,
    ).toBe(204);
    expect((await json(await ssh(instance.id))).attributes.keys).toEqual([
      { name: key.name, fingerprint: KEYS.ecdsa256.fingerprint },
    ]);
  });

  it('logs in as ubuntu on Ubuntu, as root on any other family and on an instance without an image', async () => {
    const cases: [string | undefined, string][] = [
      ['ubuntu', 'ubuntu'],
      ['rhel', 'root'],
      ['linux', 'root'],
      [undefined, 'root'],
    ];
    for (const [osFamily, username] of cases) {
      const instance = await instanceOf({ osFamily });
      expect((await json(await ssh(instance.id))).attributes.username, String(osFamily)).toBe(username);
    }
  });

  it('falls back to the IPv6 address, and gives a null host when there is no address', async () => {
    const v6 = await instanceOf({ ipv4: null, ipv6: '2001:db8::8' });
    expect((await json(await ssh(v6.id))).attributes.host).toBe('2001:db8::8');
    const none = await instanceOf({ ipv4: null, ipv6: null });
    expect((await json(await ssh(none.id))).attributes.host).toBeNull();
  });

  it("answers another tenant's, an unknown and a malformed id with the same 404", async () => {
    const instance = await instanceOf({ osFamily: 'debian' });
    const answers = await Promise.all([
      ssh(instance.id, stranger.key),
      ssh(randomUUID(), stranger.key),
      ssh('images', stranger.key),
    ]);
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404]);
    const bodies = await Promise.all(answers.map(json));
    expect(bodies[0].errors).toEqual(bodies[1].errors);
    expect(bodies[0].errors[0].code).toBe('SVC-RES-404');
  });
});
