import { httpInstrumentationMiddleware } from '@hono/otel';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { registerConsolePage } from '../api/console-page/routes.js';
import { buildApis } from '../api/index.js';
import { httpMetrics } from '../api/middleware/http-metrics.js';
import { requestContext } from '../api/middleware/request-context.js';
import { registerOpenApi } from '../api/reference/openapi.js';
import { registerReference } from '../api/reference/routes.js';
import { createApiRouter } from '../api/routes-kit/router.js';
import { ApiError } from '../domain/errors.js';
import type { AppDeps, AppEnv } from '../http/context.js';
import { respondWithError } from '../http/error-envelope.js';
import { adminPages, takesForm } from '../web/admin/index.js';
import {
  ADMIN_BASE,
  AGENT_BASE,
  APPLICATION_BASE,
  CLIENT_BASE,
  CONSOLE_INTERNAL_BASE,
} from '../wire/paths.js';
import { registerHealth } from './health.js';

/** Paths registered for other methods, to tell a wrong method (405) from an unknown route (404). */
function allowedMethods(app: OpenAPIHono<AppEnv>) {
  const routes = app.routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => ({
      method: r.method,
      pattern: new RegExp(`^${r.path.replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')}/?$`),
    }));
  return (path: string) => [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
}

/**
 * The API process's one app: the APIs (api/) and the admin pages (web/) mounted side by side,
 * behind the middleware every request passes, with the answers for an unknown route and a fault.
 */
export function buildApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createApiRouter();
  app.use('*', httpMetrics);
  // A span per request, the parent of what it starts; a `traceparent` header (an agent's report)
  // makes it the child of the caller's.
  if (deps.tracing) app.use('*', httpInstrumentationMiddleware({ tracer: deps.tracing.tracer }));
  app.use('*', requestContext(deps, takesForm));

  const apis = buildApis();
  app.route(CLIENT_BASE, apis.client);
  app.route(CONSOLE_INTERNAL_BASE, apis['console-internal']);
  app.route(APPLICATION_BASE, apis.application);
  app.route(AGENT_BASE, apis.agent);
  // Before the admin API: a page of a path the two share hands an API call on to it.
  app.route(ADMIN_BASE, adminPages());
  app.route(ADMIN_BASE, apis.admin);
  registerOpenApi(app, apis);
  registerReference(app);

  registerHealth(app);
  registerConsolePage(app);

  const methodsFor = allowedMethods(app);
  app.notFound((c) => {
    const allowed = methodsFor(c.req.path);
    if (allowed.length > 0) {
      return respondWithError(c, new ApiError('SVC-REQ-405', { headers: { Allow: allowed.join(', ') } }));
    }
    return respondWithError(c, new ApiError('SVC-RTE-404'));
  });
  app.onError((error, c) => respondWithError(c, error));
  return app;
}
