import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findPlan } from '../../../db/repositories/plans.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import { AdminPlanEnvelope, serializeAdminPlan } from '../../serializers/plan.js';

const route = createRoute({
  method: 'get',
  path: '/plans/{plan}',
  tags: ['Plans'],
  summary: 'Show a plan',
  request: { params: uuidParam('plan') },
  responses: { 200: jsonContent(AdminPlanEnvelope, 'The plan.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await findPlan(c.get('deps').db, c.req.valid('param').plan);
    if (!row) throw notFound();
    return c.json(serializeAdminPlan(row), 200);
  });
}
