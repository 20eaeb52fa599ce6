import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listAttemptsOfEndpoint } from '../../../db/repositories/events/webhook-deliveries.js';
import { findEndpointOf } from '../../../db/repositories/events/webhook-endpoints.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { ownerOf } from '../../../services/webhooks/endpoints.js';
import {
  commonErrors,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../../wire/schemas.js';
import {
  serializeWebhookAttempt,
  WebhookAttemptEnvelope,
} from '../../../wire/serializers/events/webhook-delivery.js';
import type { WebhookSide } from './side.js';

const WebhookAttemptList = listEnvelope(WebhookAttemptEnvelope, 'WebhookAttemptList');

const route = createRoute({
  method: 'get',
  path: '/webhooks/{webhookUuid}/deliveries',
  tags: ['Webhooks'],
  summary: "A webhook endpoint's delivery log",
  description:
    'Every attempt to deliver an event to the endpoint, newest first: when, the status code (null when no ' +
    'answer came, with the reason in `error`), the latency and the first KiB of the answer; with its delivery ' +
    'and that delivery’s state. Paginated with `page` (from 1) and `per_page` (1 to 100, default 25).',
  request: { params: uuidParam('webhookUuid'), query: PageQuery },
  responses: {
    200: jsonContent(WebhookAttemptList, 'A page of the delivery log.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>, side: WebhookSide): void {
  app.openapi(route, async (c) => {
    const { webhookUuid } = c.req.valid('param');
    const { page, per_page } = c.req.valid('query');
    const { db } = c.get('deps');
    const endpoint = await findEndpointOf(db, ownerOf(side.asker(c)), webhookUuid);
    if (!endpoint) throw notFound();
    const request = { page, perPage: per_page };
    const { rows, total } = await listAttemptsOfEndpoint(db, endpoint.id, request);
    return c.json(listBody(request, total, rows.map(serializeWebhookAttempt)), 200);
  });
}
