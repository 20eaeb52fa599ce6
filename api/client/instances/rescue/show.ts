import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { rescueStatus } from '../../../../services/instances/rescue.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../../wire/schemas.js';
import { RescueEnvelope, serializeRescue } from '../../../../wire/serializers/instances/rescue.js';
import { callersInstance } from '../callers-instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/rescue',
  tags: ['Rescue'],
  summary: 'Rescue mode status',
  description:
    'Whether the instance is in rescue mode, since when, and whether it is entering or leaving it.',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    200: jsonContent(RescueEnvelope, 'The instance’s rescue mode.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const instance = await callersInstance(c, c.req.valid('param').cloudInstance);
    return c.json(serializeRescue(await rescueStatus(c.get('deps'), instance.id)), 200);
  });
}
