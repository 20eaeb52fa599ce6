import { deleteFloatingIp } from '../../../services/networks/floating-ip-stock.js';
import { commonErrors, conflictResponse, notFoundResponse } from '../../../wire/schemas.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  method: 'delete',
  path: '/floating-ips/{floatingIp}',
  tag: 'Floating IPs',
  summary: 'Take a floating IP back',
  description:
    'The address goes back to its pool. Refused while it is on an instance: its owner detaches it first.',
  responses: {
    204: { description: 'Deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The floating IP is on an instance (SVC-INUSE-409).'),
  },
  remove: deleteFloatingIp,
});
