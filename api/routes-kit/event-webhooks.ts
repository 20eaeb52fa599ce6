import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  CUSTOMER_EVENT_TYPES,
  EVENT_CATALOGUE,
  EVENT_TYPES,
  type EventAudience,
} from '../../domain/events/catalogue.js';
import type { AppEnv } from '../../http/context.js';
import { EVENT_SCHEMAS } from '../../wire/events.js';

/**
 * Every event type in the API's OpenAPI document as an OpenAPI 3.1 webhook (docs/events.md): what
 * the plane POSTs to a registered endpoint, with its Standard Webhooks headers and an example.
 * The Client and Application APIs both register endpoints, so both documents carry the catalogue:
 * the Client API's only the events a customer's endpoint may receive (no plane-wide ones).
 */
export function registerEventWebhooks(app: OpenAPIHono<AppEnv>, audience: EventAudience): void {
  for (const type of audience === 'plane' ? EVENT_TYPES : CUSTOMER_EVENT_TYPES) {
    app.openAPIRegistry.registerWebhook({
      method: 'post',
      path: type,
      // `instance.running` → `instanceRunningEvent`: unique, and stable while the type is.
      operationId: `${type.replace(/[._]([a-z])/g, (_, letter: string) => letter.toUpperCase())}Event`,
      tags: ['Webhooks'],
      summary: EVENT_CATALOGUE[type].summary,
      description:
        'POSTed to each enabled endpoint that wants this type, signed by the Standard Webhooks specification: ' +
        '`webhook-id` (the event id, the same on every attempt), `webhook-timestamp` (the attempt, in seconds) ' +
        'and `webhook-signature` (`v1,<base64 HMAC-SHA256>`, one per signing secret, space-separated). A 2xx ' +
        'acknowledges it; anything else, or no answer within `WEBHOOK_TIMEOUT_MS`, is retried with exponential ' +
        'backoff for `WEBHOOK_RETRY_WINDOW_MS`.',
      request: { body: { content: { 'application/json': { schema: EVENT_SCHEMAS[type] } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the event.' } },
    });
  }
}
