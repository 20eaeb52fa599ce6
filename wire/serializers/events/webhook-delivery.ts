import type { DeliveryLogRow } from '../../../db/repositories/events/webhook-deliveries.js';
import { EventTypeName } from '../../event-types.js';
import { z } from '../../zod.js';

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed', 'cancelled'] as const;

const deliveryState = z.enum(WEBHOOK_DELIVERY_STATES).openapi({
  description:
    '`pending`: being sent or retried; `delivered`: a 2xx came back; `failed`: the retry window closed ' +
    'without one; `cancelled`: the endpoint was disabled before it went.',
});

export const WebhookAttemptEnvelope = z
  .object({
    object: z.literal('webhook_attempt'),
    attributes: z.object({
      delivery_uuid: z.string().uuid(),
      delivery_state: deliveryState,
      event: z.object({
        id: z.string().uuid().openapi({ description: 'The `webhook-id` the attempt carried.' }),
        type: EventTypeName,
      }),
      attempt: z.number().int().openapi({ description: 'From 1, counting on across redeliveries.' }),
      attempted_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
      status_code: z
        .number()
        .int()
        .nullable()
        .openapi({ description: 'Null when no whole answer came (a redirect is an answer: not followed).' }),
      latency_ms: z.number().int(),
      response_excerpt: z.string().openapi({ description: 'The first KiB of the answer, at most.' }),
      error: z
        .string()
        .nullable()
        .openapi({
          description:
            'Why the attempt failed with no answer: the address was refused, the connection or its TLS ' +
            'handshake failed, the time ran out before the answer came or ended, or the receiver cut it off.',
        }),
    }),
  })
  .openapi('WebhookAttempt');

export const WebhookDeliveryEnvelope = z
  .object({
    object: z.literal('webhook_delivery'),
    attributes: z.object({ uuid: z.string().uuid(), state: deliveryState }),
  })
  .openapi('WebhookDelivery');

/** The only way a delivery-log row reaches a response. */
export function serializeWebhookAttempt(row: DeliveryLogRow): z.infer<typeof WebhookAttemptEnvelope> {
  return {
    object: 'webhook_attempt',
    attributes: {
      delivery_uuid: row.delivery_id,
      delivery_state: row.state,
      event: { id: row.event_id, type: EventTypeName.parse(row.event_type) },
      attempt: row.attempt,
      attempted_at: row.attempted_at.toISOString(),
      status_code: row.status_code,
      latency_ms: row.latency_ms,
      response_excerpt: row.response_excerpt,
      error: row.error,
    },
  };
}

export function serializeWebhookDelivery(row: {
  id: string;
  state: (typeof WEBHOOK_DELIVERY_STATES)[number];
}): z.infer<typeof WebhookDeliveryEnvelope> {
  return { object: 'webhook_delivery', attributes: { uuid: row.id, state: row.state } };
}
