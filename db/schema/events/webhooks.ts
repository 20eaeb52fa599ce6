import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../columns.js';

/** Where events are sent (db/migrations/20261205T0600_webhook_endpoints.ts; docs/events.md). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  /** The customer who owns it; null: the plane's, kept by administrators. */
  user_id: string | null;
  url: string;
  description: Generated<string>;
  event_types: ColumnType<string[], string[], string[]>;
  enabled: Generated<boolean>;
  /** Sealed with SECRETS_KEY (platform/secrets.ts); never serialized after creation. */
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: NullableTimestamp;
  /** Why the plane disabled it (`failing`: no 2xx for a whole retry window); null otherwise. */
  disabled_reason: 'failing' | null;
  /** The API version its deliveries are rendered in (db/migrations/20261206T0200_api_versions.ts). */
  api_version: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One event for one endpoint (db/migrations/20261205T0700_webhook_deliveries.ts). */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  stream_id: string;
  /** Its endpoint's version when it was made: every attempt sends the same bytes. */
  api_version: string;
  state: Generated<WebhookDeliveryState>;
  handed_over_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  created_at: Timestamp;
}

/** The delivery log: one row per attempt. */
export interface WebhookAttemptsTable {
  /** bigint, as pg returns it. */
  id: Generated<string>;
  delivery_id: string;
  endpoint_id: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string;
  error: string | null;
}
