import { findProvider } from '../../../db/repositories/providers.js';
import { ProviderEnvelope, serializeProvider } from '../../../wire/serializers/provider.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'providers',
  param: 'provider',
  tag: 'Providers',
  summary: 'Show a provider',
  envelope: ProviderEnvelope,
  find: findProvider,
  serialize: serializeProvider,
});
