import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findEndpointOf } from '../../../db/repositories/events/webhook-endpoints.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { ownerOf } from '../../../services/webhooks/endpoints.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  serializeWebhookEndpoint,
  WebhookEndpointEnvelope,
} from '../../../wire/serializers/events/webhook-endpoint.js';
import type { WebhookSide } from './side.js';

const route = createRoute({
  method: 'get',
  path: '/webhooks/{webhookUuid}',
  tags: ['Webhooks'],
  summary: 'Show a webhook endpoint',
  description: 'Never with its secret.',
  request: { params: uuidParam('webhookUuid') },
  responses: {
    200: jsonContent(WebhookEndpointEnvelope, 'The endpoint.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>, side: WebhookSide): void {
  app.openapi(route, async (c) => {
    const { webhookUuid } = c.req.valid('param');
    const row = await findEndpointOf(c.get('deps').db, ownerOf(side.asker(c)), webhookUuid);
    if (!row) throw notFound();
    return c.json(serializeWebhookEndpoint(row), 200);
  });
}
