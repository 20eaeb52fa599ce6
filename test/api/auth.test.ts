import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { revokeCredential } from '../../db/repositories/accounts/keys.js';
import { CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import { hashToken } from '../../domain/credentials.js';
import { CredentialCache } from '../../http/credential-cache.js';
import { bearer, json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
const keys = {} as Record<'client' | 'application' | 'agent' | 'gateway', string>;

beforeAll(async () => {
  t = await startStack();
  keys.client = t.client.key;
  keys.application = t.admin.key;
  keys.agent = (await t.agent()).key;
  keys.gateway = await seed.gatewayCredential(t.db);
});
afterAll(() => t.close());

/** One authenticated route of each API, with the credential it takes. */
const API_ROUTES = [
  { api: 'client', method: 'GET', path: '/api/client/cloud', key: 'client', status: 200 },
  {
    api: 'application',
    method: 'GET',
    path: '/api/application/cloudsvc/hypervisors',
    key: 'application',
    status: 200,
  },
  {
    api: 'agent',
    method: 'GET',
    path: '/api/cloudsvc/agent/tasks/next?wait_ms=0',
    key: 'agent',
    status: 204,
  },
  {
    api: 'console gateway',
    method: 'POST',
    path: '/api/application/cloudsvc/console/internal/heartbeat',
    key: 'gateway',
    status: 200,
  },
  {
    api: 'admin migration',
    method: 'GET',
    path: `/admin/cloudsvc/migrations/${randomUUID()}`,
    key: 'application',
    status: 404,
  },
] as const;

describe.each(API_ROUTES)('the $api API', ({ method, path, key, status }) => {
  it('refuses a request without a credential with 401', async () => {
    const res = await t.app.request(path, { method });
    expect(res.status).toBe(401);
    expect((await json(res)).errors[0].code).toBe('SVC-AUTH-401');
  });

  it('refuses an unknown credential with 401', async () => {
    const res = await t.app.request(path, { method, headers: bearer(`csc_${'x'.repeat(43)}`) });
    expect(res.status).toBe(401);
  });

  it.each(['client', 'application', 'agent', 'gateway'] as const)(
    'answers a %s credential as its type allows',
    async (offered) => {
      const res = await t.app.request(path, { method, headers: bearer(keys[offered]) });
      if (offered === key) {
        expect(res.status).toBe(status);
        if (status === 404) expect((await json(res)).errors[0].code).toBe('SVC-RES-404');
      } else {
        expect(res.status).toBe(403);
        expect((await json(res)).errors[0].code).toBe('SVC-AUTH-403');
      }
    },
  );
});

describe('client keys', () => {
  it('stop working once revoked', async () => {
    const user = await seed.user(t.db);
    const issued = await createCredential(t.db, { type: 'client', userId: user.id });
    expect((await t.app.request('/api/client/cloud', { headers: bearer(issued.token) })).status).toBe(200);
    await revokeCredential(t.db, issued.id);
    expect((await t.app.request('/api/client/cloud', { headers: bearer(issued.token) })).status).toBe(401);
  });

  it('are stored only as hashes', async () => {
    const user = await seed.user(t.db);
    const issued = await createCredential(t.db, { type: 'client', userId: user.id });
    const row = await t.db
      .selectFrom('credentials')
      .selectAll()
      .where('id', '=', issued.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(issued.token));
    expect(JSON.stringify(row)).not.toContain(issued.token);
  });

  it('are cached for the TTL at most: a revoked key is refused once its entry expires', async () => {
    const user = await seed.user(t.db);
    const issued = await createCredential(t.db, { type: 'client', userId: user.id });
    const cache = new CredentialCache(t.db, 300);
    const credential = {
      id: issued.id,
      type: 'client',
      userId: user.id,
      hypervisorId: null,
      apiVersion: CURRENT_API_VERSION,
    };
    expect(await cache.resolve(issued.token)).toEqual(credential);
    await revokeCredential(t.db, issued.id);
    // Revoked, and still answered from the cache until its entry expires.
    expect(await cache.resolve(issued.token)).toEqual(credential);
    await new Promise((r) => setTimeout(r, 400));
    expect(await cache.resolve(issued.token)).toBeUndefined();
  });
});
