import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { editProvider } from '../../../services/providers/providers.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { ProviderEnvelope, serializeProvider } from '../../../wire/serializers/network/provider.js';
import { ProviderUpdateFields } from './fields.js';

const route = createRoute({
  method: 'patch',
  path: '/providers/{provider}',
  tags: ['Providers'],
  summary: 'Change a provider',
  description: 'The name and the endpoint may change; the kind stays. The credential is kept.',
  request: { params: uuidParam('provider'), body: jsonBody(ProviderUpdateFields) },
  responses: {
    200: jsonContent(ProviderEnvelope, 'The provider.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('A provider with this name exists (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await editProvider(c.get('deps'), c.req.valid('param').provider, c.req.valid('json'));
    return c.json(serializeProvider(row), 200);
  });
}
