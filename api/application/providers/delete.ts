import { deleteProvider } from '../../../services/providers/providers.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  resources: 'providers',
  param: 'provider',
  tag: 'Providers',
  summary: 'Delete a provider',
  description:
    'The provider, its sealed credential and its finished runs go. Refused while a test, sync or ' +
    'rotation runs (`SVC-INUSE-409`); nothing changes then.',
  held: 'A test, sync or rotation of the provider is running',
  remove: deleteProvider,
});
