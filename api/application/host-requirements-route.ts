import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { HostRequirement } from '../../domain/instances/host-requirements.js';
import type { AppEnv } from '../../http/context.js';
import type { ServiceDeps } from '../../services/context.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../wire/schemas.js';
import {
  HostRequirementsBody,
  HostRequirementsEnvelope,
  serializeHostRequirements,
} from '../../wire/serializers/host-requirements.js';

/**
 * `PUT /<resources>/{<param>}/host-requirements`: the instance's and the plan's routes differ only
 * in the resource they name, their words and the service that records the list.
 */
export function hostRequirementsRoute(spec: {
  readonly resources: 'instances' | 'plans';
  readonly param: 'instance' | 'plan';
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly answered: string;
  readonly set: (
    deps: ServiceDeps,
    id: string,
    requirements: readonly HostRequirement[],
  ) => Promise<{ id: string; host_requirements: HostRequirement[] }>;
}) {
  const route = createRoute({
    method: 'put',
    path: `/${spec.resources}/{${spec.param}}/host-requirements`,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam(spec.param), body: jsonBody(HostRequirementsBody) },
    responses: {
      200: jsonContent(HostRequirementsEnvelope, spec.answered),
      ...commonErrors,
      ...notFoundResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const id = (c.req.valid('param') as Record<string, string>)[spec.param]!;
        const row = await spec.set(c.get('deps'), id, c.req.valid('json').host_requirements);
        return c.json(serializeHostRequirements(row), 200);
      });
    },
  };
}
