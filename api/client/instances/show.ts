import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../wire/serializers/instances/instance.js';
import { callersInstance } from './callers-instance.js';

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
    return c.json(serializeInstance(await callersInstance(c, cloudInstance)), 200);
  });
}
