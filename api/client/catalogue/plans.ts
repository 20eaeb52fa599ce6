import { listPlans } from '../../../db/repositories/plans.js';
import { catalogueListRoute } from '../../catalogue-list-route.js';
import { PlanEnvelope, serializePlan } from '../../serializers/plan.js';

export const { register } = catalogueListRoute({
  path: '/plans',
  tag: 'Catalogue',
  summary: 'List the plans that can be ordered',
  description: 'Every plan, by code: `POST /` takes its `code` as `plan`.',
  listName: 'PlanList',
  envelope: PlanEnvelope,
  list: listPlans,
  serialize: serializePlan,
});
