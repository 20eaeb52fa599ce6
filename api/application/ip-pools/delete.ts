import { deletePool } from '../../../services/networks/ip-pools.js';
import { commonErrors, conflictResponse, notFoundResponse } from '../../../wire/schemas.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  method: 'delete',
  path: '/ip-pools/{pool}',
  tag: 'IP pools',
  summary: 'Delete an IP pool',
  description:
    'Refused while the pool holds an address (`SVC-INUSE-409`, the detail counts them); nothing changes then.',
  responses: {
    204: { description: 'Deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The pool holds assigned addresses (SVC-INUSE-409).'),
  },
  remove: deletePool,
});
