import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { deleteEndpoint } from '../../../services/webhooks/endpoints.js';
import { commonErrors, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import type { WebhookSide } from './side.js';

const route = createRoute({
  method: 'delete',
  path: '/webhooks/{webhookUuid}',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint',
  description: 'It receives nothing more; its delivery log goes with it.',
  request: { params: uuidParam('webhookUuid') },
  responses: {
    204: { description: 'The endpoint was deleted.' },
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>, side: WebhookSide): void {
  app.openapi(route, async (c) => {
    const { webhookUuid } = c.req.valid('param');
    await deleteEndpoint(c.get('deps'), side.asker(c), {
      endpointId: webhookUuid,
      correlationId: c.get('requestId'),
    });
    return c.body(null, 204);
  });
}
