import type { EventAudience } from '../../domain/events/catalogue.js';
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_URL_MAX } from '../../domain/events/endpoints.js';
import { text } from '../../domain/input-bounds.js';
import { ApiVersionName } from '../api-version.js';
import { CustomerEventTypeName, EventTypeName } from '../event-types.js';
import { z } from '../zod.js';

// The fields of a webhook endpoint a customer (Client API) and an administrator (Application API)
// give alike (docs/events.md "Endpoints").

const url = () =>
  text({ max: WEBHOOK_URL_MAX }).openapi({
    description:
      'Where events are POSTed: an `https` URL whose host is public. Private, loopback, link-local and ' +
      'metadata addresses are refused, here and again for every address the host resolves to when a delivery ' +
      'connects, unless the provider allows their network (`http` is taken only there). No user name, password or fragment.',
    example: 'https://billing.example.com/hooks/cloud',
  });

const eventTypes = (audience: EventAudience) =>
  z
    .array(audience === 'plane' ? EventTypeName : CustomerEventTypeName)
    .min(1)
    .max(64)
    .openapi({ description: 'The event types it receives (docs/events.md).', example: ['instance.running'] });

const description = () =>
  text({ min: 0, max: WEBHOOK_DESCRIPTION_MAX, trim: true }).openapi({ example: 'Billing' });

/** The bodies of one API's endpoints: a customer's name only the event types a customer may receive. */
const bodies = (audience: EventAudience) => ({
  create: z
    .strictObject({
      url: url(),
      event_types: eventTypes(audience),
      description: description().optional(),
      enabled: z.boolean().optional().openapi({ description: 'True unless given.' }),
      api_version: ApiVersionName.optional().openapi({
        description:
          'The version its deliveries are rendered in; unless given, the one this request is answered in ' +
          '(its `Cloudsvc-Version`, else the key’s pin).',
      }),
    })
    .openapi('CreateWebhookEndpointRequest'),
  update: z
    .strictObject({
      url: url().optional(),
      event_types: eventTypes(audience).optional(),
      description: description().optional(),
      enabled: z.boolean().optional(),
      api_version: ApiVersionName.optional().openapi({
        description: 'The version its deliveries are rendered in, for events recorded from now on.',
      }),
    })
    // A change that names nothing is a mistake (or no body at all), not a request to touch `updated_at`.
    .refine((body) => Object.values(body).some((v) => v !== undefined), {
      message: 'Give at least one field to change.',
    })
    .openapi('UpdateWebhookEndpointRequest'),
});

export const WEBHOOK_ENDPOINT_BODIES = { customer: bodies('customer'), plane: bodies('plane') } as const;
