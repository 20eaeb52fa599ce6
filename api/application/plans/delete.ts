import { deletePlan } from '../../../services/catalogue/plans.js';
import { commonErrors, conflictResponse, notFoundResponse } from '../../../wire/schemas.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  method: 'delete',
  path: '/plans/{plan}',
  tag: 'Plans',
  summary: 'Delete a plan',
  description:
    'Refused while an instance that is not deleted uses the plan (`SVC-INUSE-409`, the detail counts them); ' +
    'nothing changes then. Deleted instances keep no reference to it.',
  responses: {
    204: { description: 'Deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('Instances use the plan (SVC-INUSE-409).'),
  },
  remove: deletePlan,
});
