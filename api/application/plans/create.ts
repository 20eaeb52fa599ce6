import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createPlan } from '../../../services/catalogue/plans.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { AdminPlanEnvelope, serializeAdminPlan } from '../../../wire/serializers/catalogue/plan.js';
import { PlanCreateFields, planColumns } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/plans',
  tags: ['Plans'],
  summary: 'Create a plan',
  description:
    'Customers order it by `code` (`GET /plans` of the Client API lists it at once). Sizes are bounded: ' +
    '1 to 512 CPU cores, 64 MB to 16 TiB of memory, 32 MB to 64 TiB of disk.',
  request: { body: jsonBody(PlanCreateFields) },
  responses: {
    201: jsonContent(AdminPlanEnvelope, 'The plan.'),
    ...commonErrors,
    ...conflictResponse('A plan with this code exists (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await createPlan(c.get('deps'), { location_id: null, ...planColumns(c.req.valid('json')) });
    return c.json(serializeAdminPlan(row), 201);
  });
}
