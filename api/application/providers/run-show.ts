import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findProviderRun } from '../../../db/repositories/network/provider-run-lists.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { ProviderRunEnvelope, serializeProviderRun } from '../../../wire/serializers/network/provider.js';
import { ProviderRunParams } from './fields.js';

const route = createRoute({
  method: 'get',
  path: '/providers/{provider}/runs/{run}',
  tags: ['Providers'],
  summary: 'Show a provider’s run',
  description: 'A test, sync or rotation with its outcome once it has finished.',
  request: { params: ProviderRunParams },
  responses: { 200: jsonContent(ProviderRunEnvelope, 'The run.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { provider, run } = c.req.valid('param');
    const row = await findProviderRun(c.get('deps').db, provider, run);
    if (!row) throw notFound();
    return c.json(serializeProviderRun(row), 200);
  });
}
