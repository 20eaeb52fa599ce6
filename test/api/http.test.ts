import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { bearer, json, jsonHeaders } from '../support/http.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
let clientKey: string;
let appKey: string;

beforeAll(async () => {
  t = await startStack();
  clientKey = t.client.key;
  appKey = t.admin.key;
});
afterAll(() => t.close());

const SUPPORT_ID = /^sup_[0-9a-f]{32}$/;

function expectEnvelope(body: unknown, code: string, status: number) {
  expect(body).toMatchObject({ errors: [{ code, status }], support_id: expect.stringMatching(SUPPORT_ID) });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|node_modules|select |stack/i);
}

describe('request ids', () => {
  it('echoes a given X-Request-Id', async () => {
    const res = await t.app.request('/api/client/cloud', {
      headers: { ...bearer(clientKey), 'X-Request-Id': 'req-42' },
    });
    expect(res.headers.get('x-request-id')).toBe('req-42');
  });

  it('keeps one with spaces, and generates one when none (or a too long one) is given', async () => {
    const spaced = await t.app.request('/api/client/cloud', {
      headers: { ...bearer(clientKey), 'X-Request-Id': 'id with spaces' },
    });
    expect(spaced.headers.get('x-request-id')).toBe('id with spaces');
    const long = await t.app.request('/api/client/cloud', {
      headers: { ...bearer(clientKey), 'X-Request-Id': 'x'.repeat(201) },
    });
    expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts the request id in every log line of the request, and the support id beside the cause', async () => {
    const lines: string[] = [];
    const { createLogger } = await import('../../platform/logger.js');
    const logger = createLogger('debug', {}, (line) => lines.push(line));
    const app = buildApp({ ...t.deps, logger });
    app.get('/api/boom', () => {
      throw new Error('database password is hunter2');
    });
    const res = await app.request('/api/boom', { headers: { 'X-Request-Id': 'trace-me' } });
    const body = await json(res);
    expectEnvelope(body, 'SVC-SYS-000', 500);
    expect(JSON.stringify(body)).not.toContain('hunter2');
    const records = lines.map((l) => JSON.parse(l));
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.request_id === 'trace-me')).toBe(true);
    const failure = records.find((r) => r.msg === 'request failed');
    expect(failure.support_id).toBe(body.support_id);
    expect(JSON.stringify(failure.cause)).toContain('hunter2');
  });
});

describe('the error envelope', () => {
  it('answers an unknown route with SVC-RTE-404', async () => {
    const res = await t.app.request('/nowhere');
    expect(res.status).toBe(404);
    expectEnvelope(await json(res), 'SVC-RTE-404', 404);
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const id = randomUUID();
    const res = await t.app.request(`/api/client/cloud/${id}`, { method: 'PUT', headers: bearer(clientKey) });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expectEnvelope(await json(res), 'SVC-REQ-405', 405);
  });

  it('answers malformed JSON with SVC-REQ-JSON and changes nothing', async () => {
    const res = await t.app.request('/api/application/cloudsvc/hypervisors', {
      method: 'POST',
      headers: jsonHeaders(appKey),
      body: '{"name": ',
    });
    expect(res.status).toBe(400);
    expectEnvelope(await json(res), 'SVC-REQ-JSON', 400);
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await t.app.request('/api/application/cloudsvc/hypervisors', {
      method: 'POST',
      headers: { ...bearer(appKey), 'Content-Type': 'text/plain' },
      body: 'name=x',
    });
    expect(res.status).toBe(415);
    expectEnvelope(await json(res), 'SVC-REQ-415', 415);
  });

  it('names every invalid field', async () => {
    const res = await t.app.request('/api/application/cloudsvc/hypervisors', {
      method: 'POST',
      headers: jsonHeaders(appKey),
      body: JSON.stringify({ name: '', cpu_cores: -1 }),
    });
    expect(res.status).toBe(400);
    const body = await json(res);
    const fields = body.errors.map((e: { source: { field: string } }) => e.source.field);
    expect(fields).toEqual(
      expect.arrayContaining(['name', 'cpu_cores', 'location_uuid', 'memory_mb', 'disk_mb']),
    );
    expect(body.errors.every((e: { code: string }) => e.code === 'SVC-REQ-400')).toBe(true);
  });

  it('turns a thrown exception into SVC-SYS-000 without a stack', async () => {
    const app = buildApp(t.deps);
    app.get('/api/explode', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    });
    const res = await app.request('/api/explode');
    expect(res.status).toBe(500);
    const body = await json(res);
    expectEnvelope(body, 'SVC-SYS-000', 500);
    expect(JSON.stringify(body)).not.toContain('Cannot read');
  });
});

describe('OpenAPI', () => {
  it('serves OpenAPI 3.1 documents generated from the routes', async () => {
    for (const name of ['client', 'application', 'agent']) {
      const res = await t.app.request(`/openapi/${name}.json`);
      expect(res.status).toBe(200);
      const doc = await json(res);
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    }
    const client = await json(await t.app.request('/openapi/client.json'));
    // Served again, the same document: nothing is registered twice.
    expect(await json(await t.app.request('/openapi/client.json'))).toEqual(client);
    expect(Object.keys(client.components.securitySchemes)).toEqual(['bearer']);
    expect(client.servers[0].url).toBe('/api/client/cloud');
    expect(client.paths['/{cloudInstance}'].get.responses['404']).toBeDefined();
    expect(client.components.schemas.Instance).toBeDefined();
  });

  it('serves an API reference page', async () => {
    const res = await t.app.request('/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('cloudsvc Client API');
    const client = await t.app.request('/docs/client');
    expect(client.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await client.text()).toContain('<script src="/docs/assets/swagger-ui-bundle.js">');
  });
});
