import { findProvider } from '../../../db/repositories/network/providers.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { ProviderEnvelope, serializeProvider } from '../../../wire/serializers/network/provider.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/providers/{provider}',
  tag: 'Providers',
  summary: 'Show a provider',
  responses: {
    200: jsonContent(ProviderEnvelope, 'The provider.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findProvider,
  serialize: serializeProvider,
});
