import { randomUUID } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { CredentialType } from '../../domain/credentials.js';
import {
  ADMIN_BASE,
  AGENT_BASE,
  APPLICATION_BASE,
  CLIENT_BASE,
  CONSOLE_INTERNAL_BASE,
} from '../../wire/paths.js';
import { type Body, json } from './http.js';

/**
 * The routes an app registers, each with its operation in the OpenAPI documents the app serves,
 * for tests that must cover every route the day it is added (the security sweep, the fuzz suite).
 */

/** Each API and the one credential type it takes; the longest base that matches a path wins. */
export const APIS: { base: string; takes: CredentialType; tenant?: string }[] = [
  { base: CONSOLE_INTERNAL_BASE, takes: 'console_gateway' },
  { base: CLIENT_BASE, takes: 'client', tenant: 'customer' },
  { base: APPLICATION_BASE, takes: 'application' },
  { base: AGENT_BASE, takes: 'agent', tenant: 'hypervisor' },
  { base: ADMIN_BASE, takes: 'application' },
];

export const apiOf = (path: string) =>
  APIS.filter((api) => path === api.base || path.startsWith(`${api.base}/`)).sort(
    (a, b) => b.base.length - a.base.length,
  )[0];

/** An operation of an OpenAPI document, with the document its `$ref`s point into. */
export interface DocumentedOperation {
  readonly doc: Body;
  readonly operation: Body;
}

export interface Route {
  method: string;
  /** Hono's pattern: `:name`, maybe with a `{regex}` constraint. */
  path: string;
  params: string[];
  /** Absent for a route no document describes. */
  documented?: DocumentedOperation;
  /** A valid JSON body, for routes that take one (see `exampleOf`). */
  body?: unknown;
}

/** Fills each path parameter of a route. */
export const pathWith = (route: Pick<Route, 'path'>, value: (param: string) => string) =>
  route.path.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => value(name));

/** The names of the OpenAPI documents, read from the route that serves them. */
function documentNames(app: Pick<OpenAPIHono, 'routes'>): string[] {
  const route = app.routes.find((r) => r.method === 'GET' && r.path.startsWith('/openapi/:'));
  const choices = route?.path.match(/\{\(([\w|-]+)\)/)?.[1];
  return choices ? choices.split('|') : [];
}

/** The app's routes (not its middleware), with their documented operation and a valid body. */
// biome-ignore lint/suspicious/noExplicitAny: any app, whatever its environment type
export async function registeredRoutes(app: OpenAPIHono<any>): Promise<Route[]> {
  const operations = new Map<string, DocumentedOperation>();
  for (const name of documentNames(app)) {
    const doc: Body = await json(await app.request(`/openapi/${name}.json`));
    const base: string = doc.servers[0].url;
    for (const [path, methods] of Object.entries<Body>(doc.paths)) {
      for (const [method, operation] of Object.entries<Body>(methods)) {
        const honoPath = `${base}${path.replace(/\{(\w+)\}/g, ':$1')}`.replace(/\/$/, '');
        operations.set(`${method.toUpperCase()} ${honoPath}`, { doc, operation });
      }
    }
  }
  const seen = new Map<string, Route>();
  for (const { method, path } of app.routes) {
    const key = `${method} ${path}`;
    if (method === 'ALL' || seen.has(key)) continue;
    const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const documented = operations.get(key);
    const schema = bodySchemaOf(documented);
    seen.set(key, {
      method,
      path,
      params,
      ...(documented ? { documented } : {}),
      ...(schema ? { body: exampleOf(schema, documented!.doc) } : {}),
    });
  }
  return [...seen.values()];
}

/** The JSON schema of an operation's request body, if it takes one. */
export const bodySchemaOf = (documented: DocumentedOperation | undefined): Body | undefined =>
  documented?.operation.requestBody?.content?.['application/json']?.schema;

/** A schema with its `$ref` followed. */
export function resolved(schema: Body, doc: Body): Body {
  let current = schema;
  while (current?.$ref) current = doc.components.schemas[current.$ref.split('/').pop()];
  return current;
}

/** The smallest value a JSON schema accepts: required properties only, lower bounds, first choices. */
export function exampleOf(schema: Body, doc: Body): unknown {
  if (schema.$ref) return exampleOf(resolved(schema, doc), doc);
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf ?? schema.oneOf) return exampleOf((schema.anyOf ?? schema.oneOf)[0], doc);
  // A named schema with a description of its use: `allOf: [{ $ref }, { description }]`.
  if (schema.allOf) return exampleOf(schema.allOf[0], doc);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      // An update whose fields are all optional still wants one of them.
      const names: string[] = schema.required ?? Object.keys(schema.properties ?? {}).slice(0, 1);
      return Object.fromEntries(names.map((name) => [name, exampleOf(schema.properties[name], doc)]));
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => exampleOf(schema.items, doc));
    case 'integer':
    case 'number':
      return Math.max(
        schema.minimum ?? 1,
        schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1,
      );
    case 'boolean':
      return false;
    case 'string':
      return stringOf(schema);
    default:
      return null;
  }
}

function stringOf(schema: Body): string {
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'date-time') return new Date().toISOString();
  const length = Math.max(schema.minLength ?? 1, 1);
  const candidates = ['x', 'X', '0', 'x-0'].map((c) => c.repeat(length));
  return candidates.find((c) => !schema.pattern || new RegExp(schema.pattern).test(c)) ?? candidates[0]!;
}
