import { ApplicationFailure } from '@temporalio/activity';
import { Webhook } from 'standardwebhooks';
import type { Database } from '../db/database.js';
import {
  disableFailingEndpoint,
  findDeliveryToAttempt,
  finishDelivery,
  recordAttempt,
} from '../db/repositories/events/webhook-deliveries.js';
import { API_VERSION_HEADER, pinnedVersion } from '../domain/api-versions/versions.js';
import type { DeliveryOutcome } from '../domain/events/delivery.js';
import { endpointNetworks } from '../domain/events/endpoints.js';
import type { Config } from '../platform/config.js';
import { secretBox } from '../platform/secrets.js';
import { renderEvent } from '../wire/events.js';
import { postWebhook, RESPONSE_EXCERPT_BYTES } from './webhook-post.js';

export type WebhookSettings = Pick<
  Config,
  | 'SECRETS_KEY'
  | 'WEBHOOK_ALLOWED_NETWORKS'
  | 'WEBHOOK_CUSTOMER_ALLOWED_NETWORKS'
  | 'WEBHOOK_TIMEOUT_MS'
  // A migration's event links its run in the Temporal Web UI, as the Application API does.
  | 'TEMPORAL_UI_URL'
  | 'TEMPORAL_NAMESPACE'
>;

/** Standard Webhooks' three headers: the event's id (the same on every attempt), the attempt's time, its signatures. */
function signedHeaders(secrets: readonly string[], eventId: string, at: Date, body: string) {
  return {
    'content-type': 'application/json',
    'user-agent': 'cloudsvc-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    // Several signatures, space-separated, while a rotated secret still signs beside the new one.
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' '),
  };
}

/** Webhook deliveries (docs/events.md "Delivery"): one attempt per activity attempt, logged. */
export function createWebhookActivities(db: Database, settings: WebhookSettings) {
  return {
    /**
     * One POST of the delivery's event to its endpoint. Nothing is held open while it waits: the
     * delivery is read, the POST made, and the attempt written after. A 2xx ends the delivery;
     * anything else fails the attempt, and Temporal retries it by the step's backoff.
     */
    async attemptWebhookDelivery(deliveryId: string): Promise<DeliveryOutcome> {
      const delivery = await findDeliveryToAttempt(db, deliveryId);
      // Delivered already (a repeated hand-over), or gone with its endpoint.
      if (delivery?.state !== 'pending') return 'skipped';
      if (!delivery.enabled) {
        await finishDelivery(db, deliveryId, 'cancelled');
        return 'cancelled';
      }
      const version = pinnedVersion(delivery.api_version);
      const body = JSON.stringify(
        renderEvent(
          {
            id: delivery.event_id,
            type: delivery.event_type,
            occurred_at: delivery.event_occurred_at,
            data: delivery.event_data,
          },
          version,
          { links: settings },
        ),
      );
      const box = secretBox(settings.SECRETS_KEY);
      const secrets = [delivery.secret_sealed, delivery.previous_secret_sealed].flatMap((s) =>
        s ? [box.open(s)] : [],
      );
      const attemptedAt = new Date();
      const started = performance.now();
      const outcome = await postWebhook({
        url: delivery.url,
        headers: {
          ...signedHeaders(secrets, delivery.event_id, attemptedAt, body),
          [API_VERSION_HEADER.toLowerCase()]: version,
        },
        body,
        allowedNetworks: endpointNetworks(delivery.endpoint_user_id === null, settings),
        timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
      });
      const delivered = outcome.ok && outcome.statusCode >= 200 && outcome.statusCode < 300;
      const attempt = await recordAttempt(
        db,
        {
          deliveryId,
          endpointId: delivery.endpoint_id,
          attemptedAt,
          statusCode: outcome.ok ? outcome.statusCode : null,
          latencyMs: Math.round(performance.now() - started),
          responseExcerpt: outcome.ok ? outcome.excerpt.slice(0, RESPONSE_EXCERPT_BYTES) : '',
          error: outcome.ok ? null : outcome.error,
        },
        delivered,
      );
      if (delivered) return 'delivered';
      throw ApplicationFailure.retryable(
        `attempt ${attempt}: ${outcome.ok ? `the endpoint answered ${outcome.statusCode}` : outcome.error}`,
        'WEBHOOK_NOT_DELIVERED',
      );
    },

    /**
     * The retry window passed without a 2xx: the delivery is given up (it may be redelivered), and
     * its endpoint disabled if nothing it was sent in that window was taken.
     */
    async giveUpWebhookDelivery(deliveryId: string): Promise<void> {
      await finishDelivery(db, deliveryId, 'failed');
      await disableFailingEndpoint(db, deliveryId);
    },
  };
}
