import { deleteLocation } from '../../../services/catalogue/locations.js';
import { commonErrors, conflictResponse, notFoundResponse } from '../../../wire/schemas.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  method: 'delete',
  path: '/locations/{location}',
  tag: 'Locations',
  summary: 'Delete a location',
  description:
    'Refused while hypervisors, IP pools, customers’ private networks or instances (deleted ones too: their record says where they ran) ' +
    'refer to it (`SVC-INUSE-409`, the detail counts each); nothing changes then.',
  responses: {
    204: { description: 'Deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'Hypervisors, IP pools, private networks or instances refer to the location (SVC-INUSE-409).',
    ),
  },
  remove: deleteLocation,
});
