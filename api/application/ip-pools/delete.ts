import { deletePool } from '../../../services/networks/ip-pools.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  resources: 'ip-pools',
  param: 'pool',
  tag: 'IP pools',
  summary: 'Delete an IP pool',
  description:
    'Refused while the pool holds an address (`SVC-INUSE-409`, the detail counts them); nothing changes then.',
  held: 'The pool holds assigned addresses',
  remove: deletePool,
});
