import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createEndpoint } from '../../../services/webhooks/endpoints.js';
import { WEBHOOK_ENDPOINT_BODIES } from '../../../wire/requests/webhook.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import {
  serializeWebhookEndpointWithSecret,
  WebhookEndpointWithSecretEnvelope,
} from '../../../wire/serializers/events/webhook-endpoint.js';
import { versionOf } from '../../middleware/api-version.js';
import type { WebhookSide } from './side.js';

const route = (side: WebhookSide) =>
  createRoute({
    method: 'post',
    path: '/webhooks',
    tags: ['Webhooks'],
    summary: 'Register a webhook endpoint',
    description:
      side.receives +
      ' Each delivery is a POST signed by the Standard Webhooks specification (`webhook-id`, ' +
      '`webhook-timestamp`, `webhook-signature`) with the secret this answer shows, once (docs/events.md). ' +
      'A URL at a private, loopback or link-local address is refused (SVC-REQ-400, field `url`) unless the ' +
      'provider allows its network. Deliveries are rendered in `api_version`: the version this request is ' +
      'answered in unless the body names one. At most `WEBHOOK_ENDPOINTS_MAX` endpoints (10 by default; SVC-QUOTA-409).',
    request: { body: jsonBody(WEBHOOK_ENDPOINT_BODIES[side.audience].create) },
    responses: {
      201: jsonContent(WebhookEndpointWithSecretEnvelope, 'The endpoint, with its secret: shown this once.'),
      ...commonErrors,
      ...conflictResponse('As many endpoints as allowed already (SVC-QUOTA-409).'),
    },
  });

export function register(app: OpenAPIHono<AppEnv>, side: WebhookSide): void {
  app.openapi(route(side), async (c) => {
    const body = c.req.valid('json');
    const { endpoint, secret } = await createEndpoint(c.get('deps'), side.asker(c), {
      url: body.url,
      description: body.description ?? '',
      eventTypes: body.event_types,
      enabled: body.enabled ?? true,
      apiVersion: body.api_version ?? versionOf(c),
      correlationId: c.get('requestId'),
    });
    return c.json(serializeWebhookEndpointWithSecret(endpoint, secret), 201);
  });
}
