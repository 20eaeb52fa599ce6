import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { HostRequirement } from '../../domain/instances/host-requirements.js';
import type { AppEnv } from '../../http/context.js';
import type { ServiceDeps } from '../../services/context.js';
import {
  type commonErrors,
  type JsonResponse,
  jsonBody,
  type notFoundResponse,
  uuidParam,
} from '../../wire/schemas.js';
import {
  HostRequirementsBody,
  type HostRequirementsEnvelope,
  serializeHostRequirements,
} from '../../wire/serializers/instances/host-requirements.js';
import { pathParam } from '../routes-kit/path-params.js';

/**
 * `PUT /<resources>/{<param>}/host-requirements`: the instance's and the plan's routes differ only
 * in the resource they name, their words and the service that records the list. The route file
 * states its method, path and responses.
 */
export function hostRequirementsRoute<P extends string>(spec: {
  readonly method: 'put';
  readonly path: `/${string}/{${P}}/host-requirements`;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 200: JsonResponse<typeof HostRequirementsEnvelope> } & typeof commonErrors &
    typeof notFoundResponse;
  readonly set: (
    deps: ServiceDeps,
    id: string,
    requirements: readonly HostRequirement[],
  ) => Promise<{ id: string; host_requirements: HostRequirement[] }>;
}) {
  const param = pathParam<P>(spec.path);
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam(param), body: jsonBody(HostRequirementsBody) },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const id = (c.req.valid('param') as Record<string, string>)[param]!;
        const row = await spec.set(c.get('deps'), id, c.req.valid('json').host_requirements);
        return c.json(serializeHostRequirements(row), 200);
      });
    },
  };
}
