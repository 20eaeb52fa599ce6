import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../../api/middleware/request-context.js';
import { createApiRouter } from '../../api/routes-kit/router.js';
import { validationHook } from '../../api/routes-kit/validation.js';
import { respondWithError } from '../../http/error-envelope.js';
import { jsonBody, PageQuery, uuidParam } from '../../wire/schemas.js';
import { z } from '../../wire/zod.js';
import { type Body, bearer, json, jsonHeaders } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * The request path's shortcuts (api/middleware/hot-path.ts) answer what the plain way answers:
 * the parameter checks what @hono/zod-openapi's own validators answer, the request id on Node's
 * response what a Hono header gives, a GET what it gave when the body limit still looked at it.
 */
let server: Stack;
let clientKey: string;
let instanceId: string;

beforeAll(async () => {
  server = await startStack({ listen: true });
  const db = server.deps.db;
  clientKey = server.client.key;
  instanceId = (await seed.instance(db, { userId: server.client.id, locationId: server.locationId })).id;
});
afterAll(() => server.close());

describe('parameter checks', () => {
  // One route of each shape, served by the shortcut and by the library's validators.
  const withQuery = createRoute({
    method: 'get',
    path: '/things/{thing}',
    request: { params: uuidParam('thing'), query: PageQuery },
    responses: { 200: { description: 'ok' } },
  });
  const withBody = createRoute({
    method: 'patch',
    path: '/things/{thing}',
    request: { params: uuidParam('thing'), body: jsonBody(z.object({ name: z.string().min(2) })) },
    responses: { 200: { description: 'ok' } },
  });
  const build = (app: OpenAPIHono<never>) => {
    app.onError((error, c) => respondWithError(c as never, error));
    app.openapi(withQuery, (c) => c.json({ param: c.req.valid('param'), query: c.req.valid('query') }, 200));
    app.openapi(withBody, (c) => c.json({ param: c.req.valid('param'), body: c.req.valid('json') }, 200));
    return app;
  };
  const shortcut = build(createApiRouter() as unknown as OpenAPIHono<never>);
  const library = build(new OpenAPIHono({ defaultHook: validationHook as never }));

  const answer = async (app: OpenAPIHono<never>, path: string, init?: RequestInit) => {
    const res = await app.request(path, init);
    const body: Body = await res.json();
    if (body.support_id) body.support_id = 'sup';
    return { status: res.status, body };
  };

  const id = randomUUID();
  const patch = (body: string) => ({
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  const cases: [string, string, RequestInit?][] = [
    ['valid, defaults applied', `/things/${id}`],
    ['valid, coerced', `/things/${id}?page=3&per_page=7`],
    ['a repeated query key', `/things/${id}?page=2&page=3`],
    ['a bad query', `/things/${id}?per_page=0`],
    ['a malformed id', '/things/not-a-uuid'],
    ['a bad query and a malformed id: the query first', '/things/not-a-uuid?page=zero'],
    ['a body', `/things/${id}`, patch('{"name":"web"}')],
    ['a bad body', `/things/${id}`, patch('{"name":"w"}')],
    ['a malformed id and a bad body: the id first', '/things/nope', patch('{"name":"w"}')],
    ['malformed JSON', `/things/${id}`, patch('{')],
  ];
  it.each(cases)('%s: the same status and body as the library', async (_name, path, init) => {
    expect(await answer(shortcut, path, init)).toEqual(await answer(library, path, init));
  });

  it('keeps the parameters in the OpenAPI description', () => {
    const document = shortcut.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    const names = (document.paths?.['/things/{thing}']?.get?.parameters ?? []).map((p) =>
      'name' in p ? `${p.in}:${p.name}` : '',
    );
    expect(names.sort()).toEqual(['path:thing', 'query:page', 'query:per_page']);
    expect(document.paths?.['/things/{thing}']?.patch?.requestBody).toBeDefined();
  });
});

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
