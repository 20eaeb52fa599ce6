import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Input, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/context.js';
import type { z } from '../../wire/zod.js';
import { checkedParameters, type ParameterTarget } from '../middleware/hot-path.js';
import { refuseBody, WRITE_METHODS } from '../middleware/no-body.js';
import { validationHook } from './validation.js';

/** A sub-application of one API, validating with the shared hook. */
export function createApiRouter(): OpenAPIHono<AppEnv> {
  // Not strict: `POST /api/client/cloud/` (SPEC.md writes the create path as `/`) is the same route as without the slash.
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook, strict: false });
  const register = app.openapi;
  // The route, unchanged, stays the source of the OpenAPI description; its query and path
  // parameters are checked by `checkedParameters` (middleware/hot-path.ts) instead of one
  // library middleware each: show-instance 2 µs a request less (docs/performance.md). The
  // library's own signature, so a route and its handler are typed as Hono types them.
  function openapi<R extends RouteConfig, I extends Input, P extends string>(
    route: R,
    handler: Parameters<typeof register<R, I, P>>[1],
    hook?: Parameters<typeof register<R, I, P>>[2],
  ): ReturnType<typeof register<R, I, P>> {
    const { query, params, ...request } = route.request ?? {};
    // One input rule: a write that declares no body refuses one that says anything.
    const takesNoBody = WRITE_METHODS.includes(route.method) && !request.body;
    const declared = route.middleware;
    const listed = declared ? (Array.isArray(declared) ? declared : [declared]) : [];
    const middleware = takesNoBody ? [...listed, refuseBody] : declared;
    const checks: (readonly [ParameterTarget, z.ZodType])[] = [
      ...(query ? [['query', query] as const] : []),
      ...(params ? [['param', params] as const] : []),
    ];
    // A route with a hook of its own keeps the library's validators, which call it with what it
    // expects (@hono/zod-openapi types a hook's data as the route's whole input, which no one
    // check has); none has one today.
    if (checks.length === 0 || hook) return register<R, I, P>({ ...route, middleware }, handler, hook);
    const { middleware: _, hide, ...described } = route;
    if (!hide) app.openAPIRegistry.registerPath(described);
    if (request.body) {
      // The body's validators run after the parameters, as the library orders them.
      const parameters = checkedParameters(checks, validationHook, (_c: Context<AppEnv>, next) => next());
      return register<R, I, P>(
        { ...route, request, hide: true, middleware: [...listed, parameters] },
        handler,
      );
    }
    return register<R, I, P>(
      { ...route, request, hide: true, middleware },
      checkedParameters(checks, validationHook, handler),
    );
  }
  app.openapi = openapi;
  return app;
}

/** Runs `middleware` on every path of a sub-app but those under `skip` (relative to `base`). */
export function exceptUnder(base: string, skip: readonly string[], middleware: MiddlewareHandler<AppEnv>) {
  const skipped = skip.map((p) => `${base}${p}`);
  const handler: MiddlewareHandler<AppEnv> = (c, next) =>
    skipped.some((p) => c.req.path === p || c.req.path.startsWith(`${p}/`)) ? next() : middleware(c, next);
  return handler;
}
