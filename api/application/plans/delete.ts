import { deletePlan } from '../../../services/catalogue/plans.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  resources: 'plans',
  param: 'plan',
  tag: 'Plans',
  summary: 'Delete a plan',
  description:
    'Refused while an instance that is not deleted uses the plan (`SVC-INUSE-409`, the detail counts them); ' +
    'nothing changes then. Deleted instances keep no reference to it.',
  held: 'Instances use the plan',
  remove: deletePlan,
});
