import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listProviders } from '../../../db/repositories/network/providers.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../../wire/schemas.js';
import { ProviderEnvelope, serializeProvider } from '../../../wire/serializers/network/provider.js';
import { ProviderListQuery } from './fields.js';

const route = createRoute({
  method: 'get',
  path: '/providers',
  tags: ['Providers'],
  summary: 'List providers',
  description:
    'The external backends the plane talks to, by name, optionally of one `kind`. Paginated with `page` ' +
    '(from 1) and `per_page` (1 to 100, default 25).',
  request: { query: ProviderListQuery },
  responses: {
    200: jsonContent(listEnvelope(ProviderEnvelope, 'ProviderList'), 'A page of providers.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, kind } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listProviders(c.get('deps').db, request, { kind });
    return c.json(listBody(request, total, rows.map(serializeProvider)), 200);
  });
}
