import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listProviderRuns } from '../../../db/repositories/provider-run-lists.js';
import { findProvider } from '../../../db/repositories/providers.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import {
  commonErrors,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../../wire/schemas.js';
import { ProviderRunEnvelope, serializeProviderRun } from '../../../wire/serializers/provider.js';

const route = createRoute({
  method: 'get',
  path: '/providers/{provider}/runs',
  tags: ['Providers'],
  summary: 'List a provider’s runs',
  description: 'Its tests, syncs and rotations, newest first. Paginated with `page` and `per_page`.',
  request: { params: uuidParam('provider'), query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(ProviderRunEnvelope, 'ProviderRunList'), 'A page of runs.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const { provider } = c.req.valid('param');
    const { page, per_page } = c.req.valid('query');
    if (!(await findProvider(db, provider))) throw notFound();
    const request = { page, perPage: per_page };
    const { rows, total } = await listProviderRuns(db, provider, request);
    return c.json(listBody(request, total, rows.map(serializeProviderRun)), 200);
  });
}
