/**
 * The request path's performance shortcuts, in one place (docs/performance.md). Each is measured
 * on show-instance, the hottest read, and test/api/hot-path.test.ts holds each to what the plain
 * way answers: the same status, body and headers.
 */
import { ServerResponse } from 'node:http';
import type { Hook } from '@hono/zod-openapi';
import type { Context, Input, Next } from 'hono';
import { $ZodAsyncError } from 'zod/v4/core';
import type { AppEnv } from '../../http/context.js';
import type { z } from '../../wire/zod.js';

/**
 * A GET or HEAD has no body: the Node adapter never reads one and a Fetch Request cannot hold one.
 * Asking Hono for it anyway makes the adapter build a whole Fetch Request, abort signal and all,
 * to answer null: two thirds of show-instance's CPU time in the adapter, Hono and the route.
 */
export const bodiless = (c: Context<AppEnv>): boolean => c.req.method === 'GET' || c.req.method === 'HEAD';

/**
 * Served by Node, a header every response carries goes onto Node's own response, which merges it
 * into whatever headers the response is given. As a Hono header it would make every response's
 * headers a Fetch Headers object, which the adapter then copies name by name into a plain one.
 * Without Node's response (`app.request` in tests), the Hono way.
 */
export function setResponseHeader(c: Context<AppEnv>, name: string, value: string): void {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (outgoing instanceof ServerResponse) outgoing.setHeader(name, value);
  else c.header(name, value);
}

export type ParameterTarget = 'query' | 'param';
export type ParameterHook = Hook<unknown, AppEnv, string, unknown>;

/** What Hono's own validator reads for a target, read the same way. */
function readTarget(c: Context<AppEnv>, target: ParameterTarget): Record<string, unknown> {
  if (target === 'param') return c.req.param() as Record<string, string>;
  return Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
}

function safeParse(schema: z.ZodType, value: unknown) {
  try {
    return schema.safeParse(value);
  } catch (error) {
    // A schema with an async refinement cannot be checked synchronously.
    if (error instanceof $ZodAsyncError) return schema.safeParseAsync(value);
    throw error;
  }
}

/**
 * Query and path parameters checked synchronously, in front of `then` and in the same function:
 * the same schemas, hook, order (query, then path) and validated data as @hono/zod-openapi's
 * validators, without a middleware per target (each an awaited step of Hono's chain) and the
 * library's awaits and header reads. Bodies keep the library's validators, which read the body.
 */
export function checkedParameters<C extends Context<AppEnv, string, Input>, Out>(
  checks: readonly (readonly [ParameterTarget, z.ZodType])[],
  hook: ParameterHook,
  then: (c: C, next: Next) => Out,
): (c: C, next: Next) => Out {
  /** A Response ends the request (the hook's, or a 400); undefined lets it go on. */
  const outcome = (c: C, target: ParameterTarget, result: z.ZodSafeParseResult<unknown>, hooked: unknown) => {
    if (hooked instanceof Response) return hooked;
    if (hooked && typeof hooked === 'object' && 'response' in hooked) return hooked.response as Response;
    if (!result.success) return c.json(result, 400);
    c.req.addValidatedData(target, result.data as object);
    return undefined;
  };
  const hooked = (c: C, target: ParameterTarget, value: unknown, result: z.ZodSafeParseResult<unknown>) =>
    hook({ data: value, ...result, target }, c);

  // Where a schema or the hook turns out asynchronous, the rest is checked with awaits.
  const slow = async (c: C, next: Next, from: number) => {
    for (let i = from; i < checks.length; i++) {
      const [target, schema] = checks[i]!;
      const value = readTarget(c, target);
      const result = await safeParse(schema, value);
      const ended = outcome(c, target, result, await hooked(c, target, value, result));
      if (ended) return ended;
    }
    return then(c, next);
  };

  const fused = (c: C, next: Next) => {
    for (let i = 0; i < checks.length; i++) {
      const [target, schema] = checks[i]!;
      const value = readTarget(c, target);
      const result = safeParse(schema, value);
      if (result instanceof Promise) return slow(c, next, i);
      const answer = hooked(c, target, value, result);
      if (answer instanceof Promise) return slow(c, next, i);
      const ended = outcome(c, target, result, answer);
      if (ended) return ended;
    }
    return then(c, next);
  };
  // The one assertion of the shortcut: Hono registers this function as the route's handler, so it
  // is typed as `then`. Besides `then`'s answers it may answer a refusal of the checks (the hook's
  // answer, or the 400 of a failure the hook let through), which is none of the route's typed
  // responses, as it is none when the library's validators answer it from their own middleware;
  // and, once a check had to be awaited, a Promise of `then`'s answer, which Hono's types cannot
  // tell from `then`'s own for a route they know only as generic.
  return fused as typeof then;
}
