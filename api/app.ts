import { httpInstrumentationMiddleware } from '@hono/otel';
import type { OpenAPIHono } from '@hono/zod-openapi';
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
import { adminApi } from './admin/index.js';
import { agentApi } from './agent/index.js';
import { applicationApi } from './application/index.js';
import { clientApi } from './client/index.js';
import { consoleInternalApi } from './console-internal/index.js';
import { registerConsolePage } from './console-page/routes.js';
import { registerHealth } from './health.js';
import { httpMetrics } from './middleware/http-metrics.js';
import { requestContext } from './middleware/request-context.js';
import { type DocumentName, registerOpenApi } from './openapi.js';
import { registerReference } from './reference/routes.js';
import { createApiRouter } from './router.js';

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

/** The sub-application of each API, by the name of its OpenAPI document; they hold no dependencies. */
export function buildApis(): Record<DocumentName, OpenAPIHono<AppEnv>> {
  return {
    client: clientApi(),
    application: applicationApi(),
    'console-internal': consoleInternalApi(),
    agent: agentApi(),
    admin: adminApi(),
  };
}

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
