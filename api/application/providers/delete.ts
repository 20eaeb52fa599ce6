import { deleteProvider } from '../../../services/providers/providers.js';
import { commonErrors, conflictResponse, notFoundResponse } from '../../../wire/schemas.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  method: 'delete',
  path: '/providers/{provider}',
  tag: 'Providers',
  summary: 'Delete a provider',
  description:
    'The provider, its sealed credential and its finished runs go. Refused while a test, sync or ' +
    'rotation runs (`SVC-INUSE-409`); nothing changes then.',
  responses: {
    204: { description: 'Deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('A test, sync or rotation of the provider is running (SVC-INUSE-409).'),
  },
  remove: deleteProvider,
});
