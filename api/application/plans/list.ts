import { planListRoute } from '../../plan-list-route.js';
import { AdminPlanEnvelope, serializeAdminPlan } from '../../serializers/plan.js';

export const { register } = planListRoute({
  tag: 'Plans',
  summary: 'List plans',
  description: 'Every plan, by code.',
  listName: 'AdminPlanList',
  envelope: AdminPlanEnvelope,
  serialize: serializeAdminPlan,
});
