import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFieldRefusals, statusesOf } from '../support/refusals.js';
import { type Stack, startStack } from '../support/stack.js';

/** Console-gateway credentials issued, listed and revoked through the Application API. */
let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const CREDENTIALS = '/console/gateway-credentials';
const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);
/** The console internal API's cheapest read, as the gateway holding `token`. */
const asGateway = (token: string) =>
  t.call(token, 'GET', '/api/application/cloudsvc/console/internal/revocations');
const listed = async () =>
  (await admin('GET', CREDENTIALS)).body.data.map((c: { attributes: unknown }) => c.attributes);

describe('console-gateway credentials of the Application API', () => {
  it('issues one that the console internal API takes and every other API refuses, shown once', async () => {
    const issued = await admin('POST', CREDENTIALS, { label: 'gateway eu-1' });
    expect(issued.status).toBe(201);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    const credential = issued.body.attributes;
    expect(issued.body.object).toBe('console_gateway_credential');
    expect(credential.token).toMatch(/^csw_/);
    expect(credential.token.startsWith(credential.hint)).toBe(true);
    expect(credential.label).toBe('gateway eu-1');

    expect((await asGateway(credential.token)).status).toBe(200);
    expect((await t.call(credential.token, 'GET', '/api/client/cloud')).status).toBe(403);
    expect((await t.call(credential.token, 'GET', `/api/application/cloudsvc${CREDENTIALS}`)).status).toBe(
      403,
    );

    const shown = await admin('GET', CREDENTIALS);
    expect(shown.status).toBe(200);
    expect(await listed()).toContainEqual(
      expect.objectContaining({
        uuid: credential.uuid,
        label: 'gateway eu-1',
        revoked: false,
        revoked_at: null,
      }),
    );
    expect(JSON.stringify(shown.body)).not.toContain(credential.token);
  });

  it('issues without a body; two at once are two credentials, each working', async () => {
    const bare = await admin('POST', CREDENTIALS);
    expect(bare.status).toBe(201);
    expect(bare.body.attributes.label).toBeNull();
    const both = await Promise.all([admin('POST', CREDENTIALS, {}), admin('POST', CREDENTIALS, {})]);
    expect(statusesOf(both)).toEqual([201, 201]);
    const [first, second] = both.map((r) => r.body.attributes);
    expect(first.uuid).not.toBe(second.uuid);
    for (const issued of [bare.body.attributes, first, second])
      expect((await asGateway(issued.token)).status).toBe(200);
  });

  it('revokes one: refused at once, listed as revoked; two revokes at once, one answers 404', async () => {
    const credential = (await admin('POST', CREDENTIALS, {})).body.attributes;
    const other = (await admin('POST', CREDENTIALS, {})).body.attributes;
    const both = await Promise.all([
      admin('DELETE', `${CREDENTIALS}/${credential.uuid}`),
      admin('DELETE', `${CREDENTIALS}/${credential.uuid}`),
    ]);
    expect(statusesOf(both)).toEqual([204, 404]);
    expect((await asGateway(credential.token)).status).toBe(401);
    expect(await listed()).toContainEqual(
      expect.objectContaining({ uuid: credential.uuid, revoked: true, revoked_at: expect.any(String) }),
    );
    expect((await asGateway(other.token)).status).toBe(200);
    // Not a gateway credential, or none at all: not found, and the client key stays live.
    const clientKey = (await admin('POST', `/users/${t.client.id}/keys`, { type: 'client' })).body.attributes;
    expect((await admin('DELETE', `${CREDENTIALS}/${clientKey.uuid}`)).status).toBe(404);
    expect((await admin('DELETE', `${CREDENTIALS}/${randomUUID()}`)).status).toBe(404);
    expect((await t.call(clientKey.token, 'GET', '/api/client/cloud')).status).toBe(200);
  });

  it('refuses bad input naming the field, and issues nothing', async () => {
    const before = (await listed()).length;
    await expectFieldRefusals(
      (body) => admin('POST', CREDENTIALS, body),
      [
        [{ label: '' }, 'label'],
        [{ label: 'x'.repeat(101) }, 'label'],
        [{ type: 'client' }, 'type'],
      ],
    );
    expect((await admin('DELETE', `${CREDENTIALS}/not-a-uuid`)).status).toBe(404);
    expect(await listed()).toHaveLength(before);
  });

  it('are not for customers: a client key is refused, and no key', async () => {
    expect((await t.call(t.client, 'POST', `/api/application/cloudsvc${CREDENTIALS}`, {})).status).toBe(403);
    expect((await t.call(null, 'GET', `/api/application/cloudsvc${CREDENTIALS}`)).status).toBe(401);
  });
});
