import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { redeliver } from '../../../services/webhooks/deliveries.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  serializeWebhookDelivery,
  WebhookDeliveryEnvelope,
} from '../../../wire/serializers/events/webhook-delivery.js';
import type { WebhookSide } from './side.js';

const route = createRoute({
  method: 'post',
  path: '/webhooks/{webhookUuid}/deliveries/{deliveryUuid}/redeliver',
  tags: ['Webhooks'],
  summary: 'Send a delivery again',
  description:
    'The event goes to the endpoint again, with the same `webhook-id` and body (signed anew), retried as ' +
    'at first; a delivery still being retried is left to its retries. Asked twice, it is sent again once ' +
    'per ask that found it finished. The delivery log shows the new attempts.',
  request: { params: uuidParam('webhookUuid').extend(uuidParam('deliveryUuid').shape) },
  responses: {
    202: jsonContent(WebhookDeliveryEnvelope, 'Accepted: the delivery, pending again.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>, side: WebhookSide): void {
  app.openapi(route, async (c) => {
    const { webhookUuid, deliveryUuid } = c.req.valid('param');
    const delivery = await redeliver(c.get('deps'), side.asker(c), {
      endpointId: webhookUuid,
      deliveryId: deliveryUuid,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeWebhookDelivery(delivery), 202);
  });
}
