import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createProvider } from '../../../services/providers/providers.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { ProviderEnvelope, serializeProvider } from '../../../wire/serializers/network/provider.js';
import { ProviderCreateFields } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/providers',
  tags: ['Providers'],
  summary: 'Create a provider',
  description:
    'A storage, IPAM or DNS backend, by name and endpoint. It has no credential yet: set one with ' +
    '`PUT /providers/{provider}/credential`.',
  request: { body: jsonBody(ProviderCreateFields) },
  responses: {
    201: jsonContent(ProviderEnvelope, 'The provider.'),
    ...commonErrors,
    ...conflictResponse('A provider with this name exists (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await createProvider(c.get('deps'), c.req.valid('json'));
    return c.json(serializeProvider(row), 201);
  });
}
