import { CURRENT_API_VERSION, FIRST_API_VERSION } from '../../domain/api-versions/versions.js';
import { serializeWebhookEndpoint, WebhookEndpointEnvelope } from '../serializers/events/webhook-endpoint.js';
import { z } from '../zod.js';
import { at, atOrNull, type EventPresenter, EXAMPLE_AT, EXAMPLE_IDS } from './presenter.js';

/** A webhook endpoint as its outbox trigger records it: never its secrets. */
const EndpointSnapshot = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.string()),
  enabled: z.boolean(),
  disabled_reason: z.enum(['failing']).nullable(),
  // Recorded since the endpoint had one (db/migrations/20261206T0200_api_versions.ts); every
  // endpoint before was on the first version.
  api_version: z.string().default(FIRST_API_VERSION),
  previous_secret_expires_at: atOrNull,
  created_at: at,
  updated_at: at,
});

export const webhookEndpointPresenter: EventPresenter<typeof WebhookEndpointEnvelope> = {
  schema: WebhookEndpointEnvelope,
  present: (snapshot) => serializeWebhookEndpoint(EndpointSnapshot.parse(snapshot)),
  // Its only event says it was disabled: the example is, whatever status the catalogue names.
  example: () => ({
    id: '2c5e8a1d-9f3b-4d7a-b6e2-8a0c4f1e3d5b',
    user_id: EXAMPLE_IDS.user,
    url: 'https://billing.example.com/hooks/cloud',
    description: 'Billing',
    event_types: ['instance.running', 'instance.stopped'],
    enabled: false,
    disabled_reason: 'failing',
    api_version: CURRENT_API_VERSION,
    previous_secret_expires_at: null,
    created_at: EXAMPLE_AT,
    updated_at: EXAMPLE_AT,
  }),
};
