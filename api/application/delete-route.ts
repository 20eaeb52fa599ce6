import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/context.js';
import type { ServiceDeps } from '../../services/context.js';
import {
  type commonErrors,
  type conflictResponse,
  type notFoundResponse,
  uuidParam,
} from '../../wire/schemas.js';
import { pathParam } from '../routes-kit/path-params.js';

/**
 * `DELETE /<resources>/{<param>}`: 204, or 409 `SVC-INUSE-409` while something holds the resource
 * (the service counts what, in the transaction that would delete it). The route file states its
 * method, path and responses.
 */
export function deleteRoute<P extends string>(spec: {
  readonly method: 'delete';
  readonly path: `/${string}/{${P}}`;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 204: { description: string } } & typeof commonErrors &
    typeof notFoundResponse &
    ReturnType<typeof conflictResponse>;
  readonly remove: (deps: ServiceDeps, id: string) => Promise<void>;
}) {
  const param = pathParam<P>(spec.path);
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam(param) },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        await spec.remove(c.get('deps'), (c.req.valid('param') as Record<string, string>)[param]!);
        return c.body(null, 204);
      });
    },
  };
}
