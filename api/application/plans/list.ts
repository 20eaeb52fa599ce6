import { listPlans } from '../../../db/repositories/catalogue/plans.js';
import { commonErrors, jsonContent, listEnvelope } from '../../../wire/schemas.js';
import { AdminPlanEnvelope, serializeAdminPlan } from '../../../wire/serializers/catalogue/plan.js';
import { catalogueListRoute } from '../../routes-kit/catalogue-list-route.js';

export const { register } = catalogueListRoute({
  method: 'get',
  path: '/plans',
  tag: 'Plans',
  summary: 'List plans',
  description: 'Every plan, by code.',
  responses: {
    200: jsonContent(listEnvelope(AdminPlanEnvelope, 'AdminPlanList'), 'A page of the list.'),
    ...commonErrors,
  },
  list: (db, page) => listPlans(db, page, 'all'),
  serialize: serializeAdminPlan,
});
