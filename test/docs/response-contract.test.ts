import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractBreach } from '../support/response-contract.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Every answer a test reads from the API (`stack.call`, `stack.app.request`) is checked against
 * its API's OpenAPI document by openapi-backend before the test sees it; a breach fails that test.
 * Here, the check itself: it passes a real answer and names what is wrong with a false one.
 */
let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

describe('the response contract', () => {
  it('passes a real answer of the Client API, and a real refusal', async () => {
    const list = await t.client.call('GET', '/api/client/cloud/ssh-keys');
    expect(list.status).toBe(200);
    const json = list.headers.get('content-type');
    expect(await contractBreach('GET', '/api/client/cloud/ssh-keys', 200, json, list.body)).toBeUndefined();
    const refused = await t.call(null, 'GET', '/api/client/cloud/ssh-keys');
    expect(refused.status).toBe(401);
    expect(
      await contractBreach('GET', '/api/client/cloud/ssh-keys', 401, json, refused.body),
    ).toBeUndefined();
  });

  it('names a body its document does not describe, with the field', async () => {
    const list = await t.client.call('GET', '/api/client/cloud/ssh-keys');
    const { object: _dropped, ...withoutObject } = list.body;
    const breach = await contractBreach(
      'GET',
      '/api/client/cloud/ssh-keys',
      200,
      'application/json',
      withoutObject,
    );
    expect(breach).toContain('GET /api/client/cloud/ssh-keys (getSshKeys) answered 200 with a body');
    expect(breach).toContain("must have required property 'object'");
  });

  it('names a status the operation does not list', async () => {
    const breach = await contractBreach('POST', '/api/cloudsvc/agent/heartbeat', 418, null, undefined);
    expect(breach).toBe(
      'POST /api/cloudsvc/agent/heartbeat (postHeartbeat) answered 418, which its document does not list',
    );
  });

  it('leaves alone what no document has an operation for: pages, probes, unknown routes', async () => {
    for (const path of ['/healthz', '/docs', '/api/client/cloud/no/such/route'])
      expect(await contractBreach('GET', path, 404, 'application/json', { errors: [] })).toBeUndefined();
  });
});
