import type { OpenAPIHono } from '@hono/zod-openapi';
import type { VersionedApi } from '../../domain/api-versions/deprecations.js';
import { CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import type { AppEnv } from '../../http/context.js';
import {
  ADMIN_BASE,
  AGENT_BASE,
  APPLICATION_BASE,
  CLIENT_BASE,
  CONSOLE_INTERNAL_BASE,
} from '../../wire/paths.js';
import { type VersionedDocument, withVersionHeaders } from './version-headers.js';

const ERRORS =
  'Errors use one envelope: `{ errors: [{ code, status, detail }], support_id }` (the codes are listed in docs/api.md).';

/** One OpenAPI document per API, served at /openapi/<name>.json, in the order /docs shows them. */
export const DOCUMENTS = {
  client: {
    base: CLIENT_BASE,
    title: 'cloudsvc Client API',
    description: `Customer API: instances and account resources. Authenticate with \`Authorization: Bearer <client key>\` (\`csc_…\`). ${ERRORS}`,
    credential: 'A client key (`csc_…`).',
    versioned: true,
  },
  application: {
    base: APPLICATION_BASE,
    title: 'cloudsvc Application API',
    description: `Administrator API for the whole control plane. Authenticate with an application key. ${ERRORS}`,
    credential: 'An application key (`csa_…`) of an administrator.',
    versioned: true,
  },
  'console-internal': {
    base: CONSOLE_INTERNAL_BASE,
    title: 'cloudsvc Console Internal API',
    description: `Spoken by the console gateway. It sits below the Application API's prefix but outside it, and takes only a console-gateway credential. ${ERRORS}`,
    credential: 'A console-gateway credential (`csw_…`).',
    versioned: false,
  },
  agent: {
    base: AGENT_BASE,
    title: 'cloudsvc Agent API',
    description: `Spoken by the agent on each hypervisor. \`enroll\` takes a one-time enrollment token in its body; every other route takes the agent credential it returns. ${ERRORS}`,
    credential: 'The agent credential (`csg_…`) that `enroll` returned.',
    versioned: false,
  },
  admin: {
    base: ADMIN_BASE,
    title: 'cloudsvc Admin API',
    description: `Migration administration, for administrators: preflight, request, show, list, cancel, roll back and recover migrations. Authenticate with an application key. ${ERRORS}`,
    credential: 'An application key (`csa_…`) of an administrator.',
    versioned: true,
  },
} as const;

export type DocumentName = keyof typeof DOCUMENTS;
export const DOCUMENT_NAMES = Object.keys(DOCUMENTS) as DocumentName[];

type Operation = { operationId?: string; summary?: string };
type Document = { paths?: Record<string, Record<string, Operation>> };

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The operationId of a route that names none: the method, then the words of the path, a
 * parameter counting as its name (`POST /hypervisors/{hypervisor}/maintenance` is
 * `postHypervisorsHypervisorMaintenance`); the API's root is named after the last word of its base.
 * It changes only when the method or the path does, so client code generated from it stays put.
 */
export function derivedOperationId(method: string, path: string, base: string): string {
  const pathWords = words(path);
  const named = pathWords.length > 0 ? pathWords : words(base).slice(-1);
  return method.toLowerCase() + named.map(capitalized).join('');
}

/**
 * The schema generator writes a regular expression that has flags as `source/flags`
 * (`^[^\p{Cc}]*$/u`), a pattern that matches nothing; JSON Schema patterns carry no flags (they
 * are read with Unicode semantics), so the suffix is cut. A slash inside a pattern is escaped, so an
 * unescaped one before trailing letters can only be that suffix.
 */
const FLAGS_SUFFIX = /(?<!\\)\/[dgimsuvy]+$/;
function withoutRegexFlags(value: unknown): void {
  if (Array.isArray(value)) for (const item of value) withoutRegexFlags(item);
  else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(record)) {
      if (key === 'pattern' && typeof child === 'string') record[key] = child.replace(FLAGS_SUFFIX, '');
      else withoutRegexFlags(child);
    }
  }
}

function withOperationIds<T extends Document>(document: T, base: string): T {
  const seen = new Map<string, string>();
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!HTTP_METHODS.has(method)) continue;
      operation.operationId ??= derivedOperationId(method, path, base);
      const where = `${method.toUpperCase()} ${path}`;
      const clash = seen.get(operation.operationId);
      // Two operations with one id would make generated clients drop one of them.
      if (clash) throw new Error(`operationId ${operation.operationId} of ${where} is also that of ${clash}`);
      seen.set(operation.operationId, where);
    }
  }
  return document;
}

/** The OpenAPI 3.1 document of each API, generated from its route definitions. */
export function openApiDocuments(
  apis: Record<DocumentName, OpenAPIHono<AppEnv>>,
): Record<DocumentName, object> {
  const documents = {} as Record<DocumentName, object>;
  for (const name of DOCUMENT_NAMES) {
    const spec = DOCUMENTS[name];
    const document = apis[name].getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: spec.title, version: CURRENT_API_VERSION, description: spec.description },
      servers: [{ url: spec.base }],
      security: [{ bearer: [] }],
    });
    // Added to the generated document, not registered on the API: the API is left as it was built.
    document.components = {
      ...document.components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: spec.credential } },
    };
    if (spec.versioned) withVersionHeaders(document as VersionedDocument, name as VersionedApi);
    withoutRegexFlags(document);
    documents[name] = withOperationIds(document as Document, spec.base);
  }
  return documents;
}

/** Serves the documents (the reference page that renders them: routes.ts). */
export function registerOpenApi(app: OpenAPIHono<AppEnv>, apis: Record<DocumentName, OpenAPIHono<AppEnv>>) {
  // Built on first request, once every route is registered; the same objects are served after.
  let documents: Record<DocumentName, object> | undefined;
  const built = () => {
    documents ??= openApiDocuments(apis);
    return documents;
  };
  app.get(`/openapi/:name{(${DOCUMENT_NAMES.join('|')})\\.json}`, (c) =>
    c.json(built()[c.req.param('name').replace(/\.json$/, '') as DocumentName]),
  );
}
