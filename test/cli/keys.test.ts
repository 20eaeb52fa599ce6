import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../domain/credentials.js';
import { bearer } from '../support/http.js';
import { type Stack, startStack } from '../support/stack.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/cloudsvc.js', import.meta.url));

let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

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

  it('lists its commands', async () => {
    const help = await cli('--help');
    expect(help.stdout).toContain('users:create');
    expect(help.stdout).toContain('keys:create');
    expect(help.stdout).toContain('keys:revoke');
  });
});
