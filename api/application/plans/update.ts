import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { editPlan } from '../../../services/catalogue/plans.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { AdminPlanEnvelope, serializeAdminPlan } from '../../../wire/serializers/catalogue/plan.js';
import { PlanUpdateFields, planColumns } from './fields.js';

const route = createRoute({
  method: 'patch',
  path: '/plans/{plan}',
  tags: ['Plans'],
  summary: 'Change a plan',
  description:
    'The fields given change; the code stays. Instances keep the sizes they were made with: a change ' +
    'reaches only the instances created after it.',
  request: { params: uuidParam('plan'), body: jsonBody(PlanUpdateFields) },
  responses: { 200: jsonContent(AdminPlanEnvelope, 'The plan.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await editPlan(c.get('deps'), c.req.valid('param').plan, planColumns(c.req.valid('json')));
    return c.json(serializeAdminPlan(row), 200);
  });
}
