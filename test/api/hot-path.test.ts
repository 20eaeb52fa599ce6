import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../../api/middleware/request-context.js';
import { type Body, bearer, json, jsonHeaders, seed, startTestServer } from '../harness.js';

/**
 * The request path's shortcuts (api/middleware/hot-path.ts) answer what the plain way answers:
 * the request id on Node's response what a Hono header gives, a GET what it gave when the body
 * limit still looked at it.
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
const requestIds = (rawHeaders: string[]) =>
  rawHeaders.filter((_, i) => i % 2 === 0 && rawHeaders[i]!.toLowerCase() === 'x-request-id').length;
const headerOf = (rawHeaders: string[], name: string) =>
  rawHeaders[rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === name) + 1];

describe('the request id on Node’s response', () => {
  const paths: [string, () => string, number][] = [
    ['a read', () => `/api/client/cloud/${instanceId}`, 200],
    ['an unknown instance', () => `/api/client/cloud/${randomUUID()}`, 404],
    ['a malformed id', () => '/api/client/cloud/nope', 404],
    ['an unknown route', () => '/nowhere', 404],
  ];
  it.each(paths)('is sent once, as given, with %s', async (_name, path, status) => {
    const res = await raw(path(), { headers: { ...bearer(clientKey), 'X-Request-Id': 'trace-42' } });
    expect(res.status).toBe(status);
    expect(requestIds(res.rawHeaders)).toBe(1);
    expect(headerOf(res.rawHeaders, 'x-request-id')).toBe('trace-42');
  });

  it('is sent once beside the headers of a refusal (401 with WWW-Authenticate, 413)', async () => {
    const refused = await raw(`/api/client/cloud/${instanceId}`, { headers: { 'X-Request-Id': 'trace-43' } });
    expect(refused.status).toBe(401);
    expect(headerOf(refused.rawHeaders, 'www-authenticate')).toBe('Bearer');
    expect(requestIds(refused.rawHeaders)).toBe(1);
    const large = await raw('/api/client/cloud/ssh-keys', {
      method: 'POST',
      headers: { ...jsonHeaders(clientKey), 'X-Request-Id': 'trace-44' },
      body: JSON.stringify({ name: 'k', public_key: 'x'.repeat(server.config.BODY_LIMIT_BYTES) }),
    });
    expect(large.status).toBe(413);
    expect(headerOf(large.rawHeaders, 'x-request-id')).toBe('trace-44');
    expect(requestIds(large.rawHeaders)).toBe(1);
  });

  it('is the one Hono would set where there is no Node response', async () => {
    const app = new OpenAPIHono();
    app.use('*', requestContext(server.deps) as never);
    app.get('/ping', (c) => c.json({ ok: true }));
    const res = await app.request('/ping', { headers: { 'X-Request-Id': 'trace-45' } });
    expect(res.headers.get('x-request-id')).toBe('trace-45');
  });
});

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
