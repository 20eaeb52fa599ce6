import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { setHostRequirementsOfPlan } from '../../../services/plans/host-requirements.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import {
  HostRequirementsBody,
  HostRequirementsEnvelope,
  serializeHostRequirements,
} from '../../serializers/host-requirements.js';

const route = createRoute({
  method: 'put',
  path: '/plans/{plan}/host-requirements',
  tags: ['Plans'],
  summary: "Set what binds a plan's instances to their host",
  description:
    'Each instance created from the plan afterwards takes the list (instances made before keep theirs). The ' +
    'list replaces the one before; repeating it changes nothing.',
  request: { params: uuidParam('plan'), body: jsonBody(HostRequirementsBody) },
  responses: {
    200: jsonContent(HostRequirementsEnvelope, "The plan's host requirements (`uuid` is the plan's)."),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await setHostRequirementsOfPlan(c.get('deps'), {
      planId: c.req.valid('param').plan,
      requirements: c.req.valid('json').host_requirements,
    });
    return c.json(serializeHostRequirements(row), 200);
  });
}
