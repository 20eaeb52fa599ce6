import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { setHostRequirementsOfInstance } from '../../../services/instances/host-requirements.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import {
  HostRequirementsBody,
  HostRequirementsEnvelope,
  serializeHostRequirements,
} from '../../serializers/host-requirements.js';

const route = createRoute({
  method: 'put',
  path: '/instances/{instance}/host-requirements',
  tags: ['Instances'],
  summary: 'Set what binds an instance to its host',
  description:
    'Any tenant’s instance. The list replaces the one before (repeating it changes nothing); the migration ' +
    'preflight then reports a HOST_BOUND_* blocker for each requirement.',
  request: { params: uuidParam('instance'), body: jsonBody(HostRequirementsBody) },
  responses: {
    200: jsonContent(
      HostRequirementsEnvelope,
      "The instance's host requirements (`uuid` is the instance's).",
    ),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await setHostRequirementsOfInstance(c.get('deps'), {
      instanceId: c.req.valid('param').instance,
      requirements: c.req.valid('json').host_requirements,
    });
    return c.json(serializeHostRequirements(row), 200);
  });
}
