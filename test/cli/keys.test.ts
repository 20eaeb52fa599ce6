import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_VERSION_HEADER,
  CURRENT_API_VERSION,
  FIRST_API_VERSION,
} from '../../domain/api-versions/versions.js';
import { hashToken } from '../../domain/credentials.js';
import { bearer, json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/cloudsvc.js', import.meta.url));

let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

async function adminKey(): Promise<string> {
  return seed.key(t.db, (await seed.user(t.db, { admin: true })).id, 'application');
}

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await run('node', [bin, ...args], {
      env: { ...process.env, DATABASE_URL: t.config.DATABASE_URL },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('cloudsvc CLI', () => {
  it('creates a user, issues a client key shown once and stored as a hash, and revokes it', async () => {
    const email = `ops-${randomUUID()}@example.test`;
    expect((await cli('users:create', '--email', email, '--name', 'Ops')).code).toBe(0);

    const issued = await cli('keys:create', '--type', 'client', '--user', email, '--json');
    expect(issued.code).toBe(0);
    const key = JSON.parse(issued.stdout) as { uuid: string; token: string; hint: string };
    expect(key.token).toMatch(/^csc_/);
    const row = await t.db
      .selectFrom('credentials')
      .selectAll()
      .where('id', '=', key.uuid)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(key.token));

    expect((await t.app.request('/api/client/cloud', { headers: bearer(key.token) })).status).toBe(200);
    const revoked = await cli('keys:revoke', key.hint);
    expect(revoked.code).toBe(0);
    expect((await t.app.request('/api/client/cloud', { headers: bearer(key.token) })).status).toBe(401);
  });

  it('issues application keys only to administrators', async () => {
    const email = `cust-${randomUUID()}@example.test`;
    await cli('users:create', '--email', email);
    const refused = await cli('keys:create', '--type', 'application', '--user', email);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('administrators');

    const admin = `admin-${randomUUID()}@example.test`;
    await cli('users:create', '--email', admin, '--admin');
    const issued = await cli('keys:create', '--type', 'application', '--user', admin, '--json');
    const { token } = JSON.parse(issued.stdout) as { token: string };
    expect(
      (await t.app.request('/api/application/cloudsvc/hypervisors', { headers: bearer(token) })).status,
    ).toBe(200);
  });

  it('pins a key to the version named, the current one if none, and refuses one that is not a version', async () => {
    const email = `pin-${randomUUID()}@example.test`;
    await cli('users:create', '--email', email);
    const pinned = await cli(
      'keys:create',
      '--type',
      'client',
      '--user',
      email,
      '--api-version',
      FIRST_API_VERSION,
      '--json',
    );
    expect(pinned.code, pinned.stderr).toBe(0);
    const old = JSON.parse(pinned.stdout) as { token: string; api_version: string };
    expect(old.api_version).toBe(FIRST_API_VERSION);
    const answer = await t.app.request('/api/client/cloud', { headers: bearer(old.token) });
    expect(answer.headers.get(API_VERSION_HEADER)).toBe(FIRST_API_VERSION);
    const current = JSON.parse(
      (await cli('keys:create', '--type', 'client', '--user', email, '--json')).stdout,
    );
    expect(current.api_version).toBe(CURRENT_API_VERSION);

    // Two at once, each with its own pin.
    const both = await Promise.all(
      [FIRST_API_VERSION, CURRENT_API_VERSION].map((version) =>
        cli('keys:create', '--type', 'client', '--user', email, '--api-version', version, '--json'),
      ),
    );
    expect(both.map((r) => (JSON.parse(r.stdout) as { api_version: string }).api_version)).toEqual([
      FIRST_API_VERSION,
      CURRENT_API_VERSION,
    ]);

    const keysOf = () => t.db.selectFrom('credentials').select('id').where('label', '=', email).execute();
    for (const bad of ['2020-01-01', 'yesterday']) {
      const refused = await cli(
        'keys:create',
        '--type',
        'client',
        '--user',
        email,
        '--label',
        email,
        '--api-version',
        bad,
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--api-version');
    }
    const gateway = await cli(
      'keys:create',
      '--type',
      'console-gateway',
      '--label',
      email,
      '--api-version',
      CURRENT_API_VERSION,
    );
    expect(gateway.code).toBe(2);
    expect(await keysOf()).toEqual([]);
  });

  it('explains bad usage with exit code 2 and changes nothing', async () => {
    expect((await cli()).code).toBe(2);
    expect((await cli('nope')).stderr).toContain('unknown command');
    const bad = await cli('keys:create', '--type', 'root', '--user', 'x@example.test');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--type must be one of');
    const duplicate = `dup-${randomUUID()}@example.test`;
    await cli('users:create', '--email', duplicate);
    const again = await cli('users:create', '--email', duplicate);
    expect(again.code).toBe(2);
    expect((await cli('keys:revoke', randomUUID())).code).toBe(2);
  });

  it('sets a user’s quotas by name, keeps the limits not named, and refuses a bad one with nothing changed', async () => {
    const email = `quota-${randomUUID()}@example.test`;
    await cli('users:create', '--email', email);
    const set = await cli('users:quotas', email, '--set', 'cpu_cores=4,ips=2', '--json');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout).limits).toMatchObject({ cpu_cores: 4, ips: 2, instances: null });

    const [changed, refused] = await Promise.all([
      cli('users:quotas', email, '--set', 'ips=unlimited', '--set', 'volumes=0'),
      cli('users:quotas', email, '--set', 'cpu=3'),
    ]);
    expect(changed.code).toBe(0);
    expect(changed.stdout).toMatch(/ips\s+0 \/ unlimited/);
    expect(changed.stdout).toMatch(/cpu_cores\s+0 \/ 4/);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the resource is one of');
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const shown = await t.app.request(`/api/application/cloudsvc/users/${user.id}/quotas`, {
      headers: bearer(await adminKey()),
    });
    expect((await json(shown)).attributes.limits).toEqual({
      instances: null,
      cpu_cores: 4,
      memory_mb: null,
      disk_mb: null,
      volumes: 0,
      ips: null,
    });
  });

  it('lists its commands', async () => {
    const help = await cli('--help');
    expect(help.stdout).toContain('users:create');
    expect(help.stdout).toContain('keys:create');
    expect(help.stdout).toContain('keys:revoke');
  });
});
