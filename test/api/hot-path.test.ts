import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, bearer, json, jsonHeaders, seed, startTestServer } from '../harness.js';

/**
 * The request path's shortcuts (api/middleware/hot-path.ts) answer what the plain way answers:
 * a GET what it gave when the body limit still looked at it.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let clientKey: string;
let instanceId: string;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.deps.db;
  const user = await seed.user(db);
  clientKey = await seed.key(db, user.id, 'client');
  const location = await seed.location(db);
  instanceId = (await seed.instance(db, { userId: user.id, locationId: location.id })).id;
});
afterAll(() => server.close());

/** The raw response: status, headers as sent (repeats kept) and body. */
function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; rawHeaders: string[]; body: Body }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, server.url), {
      method: options.method ?? 'GET',
      headers: options.headers,
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          rawHeaders: res.rawHeaders,
          body: JSON.parse(Buffer.concat(parts).toString()),
        }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('a GET is not read for a body', () => {
  it('answers a GET that declares a body as it answers one without', async () => {
    const withBody = await raw(`/api/client/cloud/${instanceId}`, {
      headers: { ...jsonHeaders(clientKey), 'Content-Length': '2' },
      body: '{}',
    });
    const without = await fetch(`${server.url}/api/client/cloud/${instanceId}`, {
      headers: bearer(clientKey),
    });
    expect(withBody.status).toBe(200);
    expect(withBody.body).toEqual(await json(without));
  });
});
