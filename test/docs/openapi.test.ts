import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_NAMES, DOCUMENTS, derivedOperationId } from '../../api/reference/openapi.js';
import { type Body, json } from '../support/http.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * The OpenAPI documents as served: one per API, each operation named and summarised, listed on
 * /docs and in docs/api.md. (`npm run lint:openapi` lints the same documents with Redocly.)
 */
let t: Stack;
const documents: Record<string, Body> = {};
beforeAll(async () => {
  t = await startStack();
  for (const name of DOCUMENT_NAMES) {
    const res = await t.app.request(`/openapi/${name}.json`);
    expect(res.status, name).toBe(200);
    documents[name] = await json(res);
  }
});
afterAll(() => t.close());

const operationsOf = (doc: Body) =>
  Object.entries<Body>(doc.paths ?? {}).flatMap(([path, operations]) =>
    Object.entries<Body>(operations).map(([method, operation]) => ({ path, method, operation })),
  );

describe('the OpenAPI documents', () => {
  it('are served for all five APIs, each with its base as server', () => {
    expect(DOCUMENT_NAMES).toEqual(['client', 'application', 'console-internal', 'agent', 'admin']);
    for (const name of DOCUMENT_NAMES) {
      expect(documents[name].openapi, name).toBe('3.1.0');
      expect(documents[name].servers, name).toEqual([{ url: DOCUMENTS[name].base }]);
      expect(documents[name].components.securitySchemes.bearer.scheme, name).toBe('bearer');
    }
    expect(operationsOf(documents['console-internal']).map((o) => `${o.method} ${o.path}`)).toEqual([
      'post /validate',
      'post /session-state',
      'post /heartbeat',
      'get /revocations',
    ]);
    expect(documents.admin.info.title).toBe('cloudsvc Admin API');
    expect(operationsOf(documents.admin).map((o) => `${o.method} ${o.path}`)).toEqual([
      'post /instances/{instance}/migrations/preflight',
      'post /instances/{instance}/migrations',
      'get /migrations',
      'get /migrations/{migration}',
      'post /migrations/{migration}/cancel',
      'post /migrations/{migration}/rollback',
      'post /migrations/{migration}/recover',
      'post /hypervisors/{hypervisor}/evacuations/plan',
      'post /hypervisors/{hypervisor}/evacuations',
      'get /evacuations',
      'get /evacuations/{evacuation}',
      'post /evacuations/{evacuation}/pause',
      'post /evacuations/{evacuation}/resume',
      'post /evacuations/{evacuation}/cancel',
      'post /evacuations/{evacuation}/restore',
      'post /hypervisors/{hypervisor}/backend-drains/plan',
      'post /hypervisors/{hypervisor}/backend-drains',
      'post /instances/{instance}/storage-moves/preflight',
      'post /instances/{instance}/storage-moves',
      'get /storage-moves',
      'get /storage-moves/{move}',
      'post /storage-moves/{move}/cancel',
      'post /storage-moves/{move}/rollback',
      'post /storage-moves/{move}/recover',
    ]);
  });

  it('give every operation a summary and an operationId unique in its document', () => {
    for (const name of DOCUMENT_NAMES) {
      const ids = operationsOf(documents[name]).map(({ path, method, operation }) => {
        expect(operation.summary, `${name}: ${method} ${path}`).toMatch(/\S/);
        expect(operation.operationId, `${name}: ${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
        return operation.operationId;
      });
      expect(new Set(ids).size, name).toBe(ids.length);
    }
    expect(documents.client.paths['/{cloudInstance}/power'].post.operationId).toBe('postCloudInstancePower');
    expect(documents.client.paths['/'].get.operationId).toBe('getCloud');
    expect(documents.agent.paths['/tasks/{task}/completed'].post.operationId).toBe('postTasksTaskCompleted');
  });

  it('derive an operationId from the method and the path only', () => {
    expect(derivedOperationId('get', '/hypervisors/{hypervisor}', '/api/application/cloudsvc')).toBe(
      'getHypervisorsHypervisor',
    );
    expect(derivedOperationId('POST', '/hypervisors/{hypervisor}/enrollment-token', '/x')).toBe(
      'postHypervisorsHypervisorEnrollmentToken',
    );
    expect(derivedOperationId('get', '/', '/api/client/cloud')).toBe('getCloud');
  });

  it('carry patterns a JSON Schema validator reads as the server does', () => {
    const patterns: string[] = [];
    const collect = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          if (key === 'pattern' && typeof child === 'string') patterns.push(child);
          else collect(child);
        }
      }
    };
    for (const name of DOCUMENT_NAMES) collect(documents[name]);
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) expect(() => new RegExp(pattern, 'u'), pattern).not.toThrow();
    // A hypervisor's name: plain text passes, a NUL does not, as the API itself decides.
    const name = documents.application.components.schemas.HypervisorCreate.properties.name;
    const pattern = new RegExp(name.pattern, 'u');
    expect(pattern.test('hv-01')).toBe(true);
    expect(pattern.test('hv\u000001')).toBe(false);
  });
});

describe('the reference page and the API docs', () => {
  it('/docs links every document and its page, which Swagger UI renders from it', async () => {
    const html = await (await t.app.request('/docs')).text();
    for (const name of DOCUMENT_NAMES) {
      expect(html).toContain(`href="/openapi/${name}.json"`);
      expect(html).toContain(`href="/docs/${name}"`);
      expect(html).toContain(DOCUMENTS[name].title);
      const page = await t.app.request(`/docs/${name}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`data-spec="/openapi/${name}.json"`);
    }
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'reference.js'])
      expect((await t.app.request(`/docs/assets/${asset}`)).status, asset).toBe(200);
    for (const path of ['/docs/nope', '/docs/assets/package.json', '/docs/assets/constructor'])
      expect((await t.app.request(path)).status, path).toBe(404);
  });

  it('docs/api.md names every document', () => {
    const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    for (const name of DOCUMENT_NAMES) expect(docs.includes(`/openapi/${name}.json`), name).toBe(true);
  });
});

/** The places in a request body's schema where an object of fixed fields would take an unknown one. */
function openObjects(schema: Body, doc: Body, at: string, seen = new Set<Body>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  if (schema.$ref) return openObjects(doc.components.schemas[schema.$ref.split('/').pop()], doc, at, seen);
  const found: string[] = [];
  if (schema.properties && schema.additionalProperties !== false) found.push(at || '(body)');
  for (const [name, property] of Object.entries<Body>(schema.properties ?? {}))
    found.push(...openObjects(property, doc, at ? `${at}.${name}` : name, seen));
  for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    found.push(...openObjects(part, doc, at, seen));
  if (schema.items) found.push(...openObjects(schema.items, doc, `${at}[]`, seen));
  return found;
}

describe('request bodies', () => {
  it('refuse unknown fields everywhere: every object of named fields in a body says additionalProperties false', () => {
    const open: string[] = [];
    for (const name of DOCUMENT_NAMES) {
      const doc = documents[name];
      for (const { path, method, operation } of operationsOf(doc)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        for (const place of openObjects(schema, doc, ''))
          open.push(`${name}: ${method.toUpperCase()} ${path} ${place}`);
      }
    }
    expect(open).toEqual([]);
  });
});
