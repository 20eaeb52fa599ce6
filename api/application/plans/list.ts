import { listPlans } from '../../../db/repositories/plans.js';
import { catalogueListRoute } from '../../catalogue-list-route.js';
import { AdminPlanEnvelope, serializeAdminPlan } from '../../serializers/plan.js';

export const { register } = catalogueListRoute({
  path: '/plans',
  tag: 'Plans',
  summary: 'List plans',
  description: 'Every plan, by code.',
  listName: 'AdminPlanList',
  envelope: AdminPlanEnvelope,
  list: (db, page) => listPlans(db, page, 'all'),
  serialize: serializeAdminPlan,
});
