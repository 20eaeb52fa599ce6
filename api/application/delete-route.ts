import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/context.js';
import type { ServiceDeps } from '../../services/context.js';
import { commonErrors, conflictResponse, notFoundResponse, uuidParam } from '../../wire/schemas.js';
import type { ResourceKind } from './show-route.js';

/**
 * `DELETE /<resources>/{<param>}`: 204, or 409 `SVC-INUSE-409` while something holds the resource
 * (the service counts what, in the transaction that would delete it).
 */
export function deleteRoute(
  spec: ResourceKind & {
    readonly summary: string;
    readonly description: string;
    readonly held: string;
    readonly remove: (deps: ServiceDeps, id: string) => Promise<void>;
  },
) {
  const route = createRoute({
    method: 'delete',
    path: `/${spec.resources}/{${spec.param}}`,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam(spec.param) },
    responses: {
      204: { description: 'Deleted.' },
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(`${spec.held} (SVC-INUSE-409).`),
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        await spec.remove(c.get('deps'), (c.req.valid('param') as Record<string, string>)[spec.param]!);
        return c.body(null, 204);
      });
    },
  };
}
