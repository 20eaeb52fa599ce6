import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { registerEventWebhooks } from '../event-webhooks.js';
import type { WebhookSide } from './side.js';

/** The event catalogue, as this document's OpenAPI 3.1 webhooks: what an endpoint registered here receives. */
export function register(app: OpenAPIHono<AppEnv>, side: WebhookSide): void {
  registerEventWebhooks(app, side.audience);
}
