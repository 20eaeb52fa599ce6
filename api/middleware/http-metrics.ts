import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../../http/context.js';

/**
 * Times every request into `cloudsvc_http_request_duration_seconds` by method, route template and
 * status (docs/operations.md "Metrics"). The template is the last route that matched, never the
 * path: a path's ids would make a series each. A request no route took counts as `unmatched`. It
 * runs first, so a request refused before any route (415) is counted too; its dependencies are set
 * by the time it records.
 */
export const httpMetrics: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  await next();
  const route = matchedRoutes(c).findLast((r) => r.method !== 'ALL')?.path ?? 'unmatched';
  c.get('deps').metrics.httpRequests.observe(
    { method: c.req.method, route, status: String(c.res.status) },
    (performance.now() - started) / 1000,
  );
};
