import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import { AGENT_BASE, APPLICATION_BASE, CLIENT_BASE } from './paths.js';
import { renderReference } from './reference-page.js';

const VERSION = '0.1.0';

const DOCUMENTS = {
  client: {
    base: CLIENT_BASE,
    title: 'cloudsvc Client API',
    description:
      'Customer API: instances and account resources. Authenticate with `Authorization: Bearer <client key>`. ' +
      'Errors use one envelope: `{ errors: [{ code, status, detail }], support_id }`.',
  },
  application: {
    base: APPLICATION_BASE,
    title: 'cloudsvc Application API',
    description: 'Administrator API for the whole control plane. Authenticate with an application key.',
  },
  agent: {
    base: AGENT_BASE,
    title: 'cloudsvc Agent API',
    description:
      'Spoken by the agent on each hypervisor. `enroll` takes a one-time enrollment token; every other route ' +
      'takes the agent credential it returns.',
  },
} as const;

export type DocumentName = keyof typeof DOCUMENTS;

/** OpenAPI 3.1 documents generated from the route definitions, and an HTML reference of them. */
export function registerOpenApi(app: OpenAPIHono<AppEnv>, apis: Record<DocumentName, OpenAPIHono<AppEnv>>) {
  const documents = {} as Record<DocumentName, unknown>;
  const documentOf = (name: DocumentName) => {
    const spec = DOCUMENTS[name];
    const api = apis[name];
    // Built once, on first request: registering the scheme again each time would grow the registry.
    if (documents[name] === undefined) {
      api.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
      documents[name] = api.getOpenAPI31Document({
        openapi: '3.1.0',
        info: { title: spec.title, version: VERSION, description: spec.description },
        servers: [{ url: spec.base }],
        security: [{ bearer: [] }],
      });
    }
    return documents[name];
  };

  app.get('/openapi/:name{(client|application|agent)\\.json}', (c) =>
    c.json(documentOf(c.req.param('name').replace('.json', '') as DocumentName) as object),
  );
  app.get('/docs', (c) =>
    c.html(renderReference(Object.keys(DOCUMENTS).map((name) => documentOf(name as DocumentName) as never))),
  );
}
