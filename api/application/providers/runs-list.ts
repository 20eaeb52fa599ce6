import { listProviderRuns } from '../../../db/repositories/network/provider-run-lists.js';
import { findProvider } from '../../../db/repositories/network/providers.js';
import { commonErrors, jsonContent, listEnvelope, notFoundResponse } from '../../../wire/schemas.js';
import { ProviderRunEnvelope, serializeProviderRun } from '../../../wire/serializers/network/provider.js';
import { childListRoute } from '../child-list-route.js';

export const { register } = childListRoute({
  method: 'get',
  path: '/providers/{provider}/runs',
  tag: 'Providers',
  summary: 'List a provider’s runs',
  description: 'Its tests, syncs and rotations, newest first. Paginated with `page` and `per_page`.',
  responses: {
    200: jsonContent(listEnvelope(ProviderRunEnvelope, 'ProviderRunList'), 'A page of runs.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findProvider,
  list: listProviderRuns,
  serialize: serializeProviderRun,
});
