import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findInstanceOfUser } from '../../../db/repositories/instances.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../context.js';
import { customerId } from '../../principals.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}',
  tags: ['Instances'],
  summary: 'Show one instance',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    200: jsonContent(InstanceEnvelope, 'The instance.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance } = c.req.valid('param');
    const row = await findInstanceOfUser(c.get('deps').db, customerId(c), cloudInstance);
    if (!row) throw notFound();
    return c.json(serializeInstance(row), 200);
  });
}
