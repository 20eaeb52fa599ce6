import { findPlan } from '../../../db/repositories/catalogue/plans.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { AdminPlanEnvelope, serializeAdminPlan } from '../../../wire/serializers/catalogue/plan.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/plans/{plan}',
  tag: 'Plans',
  summary: 'Show a plan',
  responses: {
    200: jsonContent(AdminPlanEnvelope, 'The plan.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findPlan,
  serialize: serializeAdminPlan,
});
