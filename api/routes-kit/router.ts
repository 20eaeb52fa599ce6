import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/context.js';
import type { z } from '../../wire/zod.js';
import { checkedParameters, type ParameterHook, type ParameterTarget } from '../middleware/hot-path.js';
import { refuseBody, WRITE_METHODS } from '../middleware/no-body.js';
import { validationHook } from './validation.js';

/** A sub-application of one API, validating with the shared hook. */
export function createApiRouter(): OpenAPIHono<AppEnv> {
  // Not strict: `POST /api/client/cloud/` (SPEC.md writes the create path as `/`) is the same route as without the slash.
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook, strict: false });
  const register = app.openapi;
  // The route, unchanged, stays the source of the OpenAPI description; its query and path
  // parameters are checked by `checkedParameters` (middleware/hot-path.ts) instead of one
  // library middleware each: show-instance 2 µs a request less (docs/performance.md).
  app.openapi = ((
    { middleware: declared, hide, ...route }: RouteConfig,
    handler: MiddlewareHandler<AppEnv>,
    hook?: ParameterHook,
  ): OpenAPIHono<AppEnv> => {
    const { query, params, ...request } = route.request ?? {};
    // One input rule: a write that declares no body refuses one that says anything.
    const takesNoBody = WRITE_METHODS.includes(route.method) && !request.body;
    const listed = declared ? (Array.isArray(declared) ? declared : [declared]) : [];
    const middleware = takesNoBody ? [...listed, refuseBody] : declared;
    const checks = [
      ...(query ? [['query', query] as const] : []),
      ...(params ? [['param', params] as const] : []),
    ] as (readonly [ParameterTarget, z.ZodType])[];
    if (checks.length === 0)
      return register({ middleware, hide, ...route } as RouteConfig, handler as never, hook as never);
    if (!hide) app.openAPIRegistry.registerPath(route);
    const effectiveHook = hook ?? (validationHook as ParameterHook);
    if (request.body) {
      // The body's validators run after the parameters, as the library orders them.
      const routeMiddleware = middleware ? (Array.isArray(middleware) ? middleware : [middleware]) : [];
      const parameters = checkedParameters(checks, effectiveHook, (_c, next) => next());
      return register(
        { ...route, request, hide: true, middleware: [...routeMiddleware, parameters] } as RouteConfig,
        handler as never,
        hook as never,
      );
    }
    return register(
      { ...route, request, hide: true, middleware } as RouteConfig,
      checkedParameters(checks, effectiveHook, handler) as never,
      hook as never,
    );
  }) as typeof app.openapi;
  return app;
}

/** Runs `middleware` on every path of a sub-app but those under `skip` (relative to `base`). */
export function exceptUnder(base: string, skip: readonly string[], middleware: MiddlewareHandler<AppEnv>) {
  const skipped = skip.map((p) => `${base}${p}`);
  const handler: MiddlewareHandler<AppEnv> = (c, next) =>
    skipped.some((p) => c.req.path === p || c.req.path.startsWith(`${p}/`)) ? next() : middleware(c, next);
  return handler;
}
