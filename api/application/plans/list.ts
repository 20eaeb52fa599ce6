import { listPlans } from '../../../db/repositories/plans.js';
import { AdminPlanEnvelope, serializeAdminPlan } from '../../../wire/serializers/plan.js';
import { catalogueListRoute } from '../../routes-kit/catalogue-list-route.js';

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
