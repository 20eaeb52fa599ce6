import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listEndpointsOf } from '../../../db/repositories/events/webhook-endpoints.js';
import type { AppEnv } from '../../../http/context.js';
import { ownerOf } from '../../../services/webhooks/endpoints.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import {
  serializeWebhookEndpoint,
  WebhookEndpointEnvelope,
} from '../../../wire/serializers/events/webhook-endpoint.js';
import type { WebhookSide } from './side.js';

const WebhookEndpointList = listEnvelope(WebhookEndpointEnvelope, 'WebhookEndpointList');

const route = (side: WebhookSide) =>
  createRoute({
    method: 'get',
    path: '/webhooks',
    tags: ['Webhooks'],
    summary: side.listSummary,
    description:
      'Oldest first; never with their secrets. Paginated with `page` (from 1) and `per_page` (1 to 100, default 25).',
    request: { query: PageQuery },
    responses: { 200: jsonContent(WebhookEndpointList, 'A page of webhook endpoints.'), ...commonErrors },
  });

export function register(app: OpenAPIHono<AppEnv>, side: WebhookSide): void {
  app.openapi(route(side), async (c) => {
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listEndpointsOf(c.get('deps').db, ownerOf(side.asker(c)), request);
    return c.json(listBody(request, total, rows.map(serializeWebhookEndpoint)), 200);
  });
}
