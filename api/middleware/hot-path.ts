/**
 * The request path's performance shortcuts, in one place (README "Performance"). Each is measured
 * on show-instance, the hottest read, and test/api/hot-path.test.ts holds each to what the plain
 * way answers: the same status, body and headers.
 */
import { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from '../context.js';

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
