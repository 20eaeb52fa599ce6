import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { validationHook } from './validation.js';

/** A sub-application of one API, validating with the shared hook. */
export function createApiRouter(): OpenAPIHono<AppEnv> {
  // Not strict: `POST /api/client/cloud/` (SPEC.md writes the create path as `/`) is the same route as without the slash.
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook, strict: false });
}

/** Runs `middleware` on every path of a sub-app but those under `skip` (relative to `base`). */
export function exceptUnder(base: string, skip: readonly string[], middleware: MiddlewareHandler<AppEnv>) {
  const skipped = skip.map((p) => `${base}${p}`);
  const handler: MiddlewareHandler<AppEnv> = (c, next) =>
    skipped.some((p) => c.req.path === p || c.req.path.startsWith(`${p}/`)) ? next() : middleware(c, next);
  return handler;
}
