import type { WebhookEndpointRow } from '../../../db/repositories/events/webhook-endpoints.js';
import { pinnedVersion } from '../../../domain/api-versions/versions.js';
import { isEventType } from '../../../domain/events/catalogue.js';
import { ApiVersionName } from '../../api-version.js';
import { EventTypeName } from '../../event-types.js';
import { z } from '../../zod.js';

export const WebhookEndpointAttributes = z
  .object({
    uuid: z.string().uuid(),
    url: z.string().openapi({ example: 'https://billing.example.com/hooks/cloud' }),
    description: z.string(),
    event_types: z.array(EventTypeName),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(['failing'])
      .nullable()
      .openapi({
        description:
          '`failing`: the plane disabled it after a whole retry window in which no delivery was answered with ' +
          'a 2xx (`webhook_endpoint.disabled` told its owner); null otherwise. Enabling it clears it.',
        example: null,
      }),
    api_version: ApiVersionName.openapi({
      description:
        'The version its deliveries are rendered in (`api_version` in each body): the one its create was ' +
        'answered in unless the create named one; a change of it applies to events recorded after.',
    }),
    previous_secret_expires_at: z
      .string()
      .nullable()
      .openapi({
        description:
          'After a rotation, until when the previous secret still signs beside the new one (each delivery carries ' +
          'both signatures); null when only one secret signs.',
        example: null,
      }),
    created_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
    updated_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
  })
  .openapi('WebhookEndpointAttributes');

export const WebhookEndpointEnvelope = z
  .object({ object: z.literal('webhook_endpoint'), attributes: WebhookEndpointAttributes })
  .openapi('WebhookEndpoint');

export const WebhookEndpointWithSecretEnvelope = z
  .object({
    object: z.literal('webhook_endpoint'),
    attributes: WebhookEndpointAttributes.extend({
      secret: z.string().openapi({
        description:
          'The signing secret (Standard Webhooks: `whsec_` and base64), shown in this answer only. Verify ' +
          'deliveries with it; rotate it to get a new one.',
        example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      }),
    }),
  })
  .openapi('WebhookEndpointWithSecret');

/** The only way an endpoint row reaches a response; the secret never does, but for `withSecret`. */
export function serializeWebhookEndpoint(row: WebhookEndpointRow): z.infer<typeof WebhookEndpointEnvelope> {
  return {
    object: 'webhook_endpoint',
    attributes: {
      uuid: row.id,
      url: row.url,
      description: row.description,
      // A type dropped from the catalogue is no longer sent: it is not shown either.
      event_types: row.event_types.filter(isEventType),
      enabled: row.enabled,
      disabled_reason: row.disabled_reason,
      api_version: pinnedVersion(row.api_version),
      previous_secret_expires_at:
        row.previous_secret_expires_at && row.previous_secret_expires_at > new Date()
          ? row.previous_secret_expires_at.toISOString()
          : null,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

/** The create's and a rotation's answer: the one time the secret is shown. */
export function serializeWebhookEndpointWithSecret(
  row: WebhookEndpointRow,
  secret: string,
): z.infer<typeof WebhookEndpointWithSecretEnvelope> {
  const { object, attributes } = serializeWebhookEndpoint(row);
  return { object, attributes: { ...attributes, secret } };
}
