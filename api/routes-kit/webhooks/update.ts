import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { updateEndpoint } from '../../../services/webhooks/endpoints.js';
import { WEBHOOK_ENDPOINT_BODIES } from '../../../wire/requests/webhook.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  serializeWebhookEndpoint,
  WebhookEndpointEnvelope,
} from '../../../wire/serializers/events/webhook-endpoint.js';
import type { WebhookSide } from './side.js';

const route = (side: WebhookSide) =>
  createRoute({
    method: 'patch',
    path: '/webhooks/{webhookUuid}',
    tags: ['Webhooks'],
    summary: 'Change a webhook endpoint',
    description:
      'At least one of its URL (checked as at creation), event types, description, `enabled` and `api_version` (for ' +
      'events recorded from then on). A disabled endpoint receives nothing; events of the meantime are not kept for it.',
    request: {
      params: uuidParam('webhookUuid'),
      body: jsonBody(WEBHOOK_ENDPOINT_BODIES[side.audience].update),
    },
    responses: {
      200: jsonContent(WebhookEndpointEnvelope, 'The endpoint as now recorded.'),
      ...commonErrors,
      ...notFoundResponse,
    },
  });

export function register(app: OpenAPIHono<AppEnv>, side: WebhookSide): void {
  app.openapi(route(side), async (c) => {
    const { webhookUuid } = c.req.valid('param');
    const body = c.req.valid('json');
    const row = await updateEndpoint(c.get('deps'), side.asker(c), {
      endpointId: webhookUuid,
      change: {
        ...(body.url === undefined ? {} : { url: body.url }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.event_types === undefined ? {} : { eventTypes: body.event_types }),
        ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
        ...(body.api_version === undefined ? {} : { apiVersion: body.api_version }),
      },
      correlationId: c.get('requestId'),
    });
    return c.json(serializeWebhookEndpoint(row), 200);
  });
}
