import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { rotateSecret } from '../../../services/webhooks/endpoints.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  serializeWebhookEndpointWithSecret,
  WebhookEndpointWithSecretEnvelope,
} from '../../../wire/serializers/events/webhook-endpoint.js';
import type { WebhookSide } from './side.js';

const route = createRoute({
  method: 'post',
  path: '/webhooks/{webhookUuid}/secret/rotate',
  tags: ['Webhooks'],
  summary: "Rotate a webhook endpoint's secret",
  description:
    'A new secret, shown in this answer only. The previous one keeps signing beside it (each delivery carries ' +
    'both signatures) for `WEBHOOK_SECRET_OVERLAP_MS` (24 hours by default), so a receiver can switch without ' +
    'refusing a delivery; a second rotation in that time retires the oldest at once.',
  request: { params: uuidParam('webhookUuid') },
  responses: {
    200: jsonContent(
      WebhookEndpointWithSecretEnvelope,
      'The endpoint, with its new secret: shown this once.',
    ),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>, side: WebhookSide): void {
  app.openapi(route, async (c) => {
    const { webhookUuid } = c.req.valid('param');
    const { endpoint, secret } = await rotateSecret(c.get('deps'), side.asker(c), {
      endpointId: webhookUuid,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeWebhookEndpointWithSecret(endpoint, secret), 200);
  });
}
