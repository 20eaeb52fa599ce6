import { planListRoute } from '../../plan-list-route.js';
import { PlanEnvelope, serializePlan } from '../../serializers/plan.js';

export const { register } = planListRoute({
  tag: 'Catalogue',
  summary: 'List the plans that can be ordered',
  description: 'Every plan, by code: `POST /` takes its `code` as `plan`.',
  listName: 'PlanList',
  envelope: PlanEnvelope,
  serialize: serializePlan,
});
