import { findPlan } from '../../../db/repositories/plans.js';
import { AdminPlanEnvelope, serializeAdminPlan } from '../../../wire/serializers/plan.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'plans',
  param: 'plan',
  tag: 'Plans',
  summary: 'Show a plan',
  envelope: AdminPlanEnvelope,
  find: findPlan,
  serialize: serializeAdminPlan,
});
