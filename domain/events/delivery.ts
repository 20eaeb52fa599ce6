// How events reach webhook endpoints (docs/events.md "Delivery"; the choice in docs/decisions.md).

/**
 * The retries of one delivery: exponential backoff from `initialMs`, doubling up to
 * `maxIntervalMs`, for `windowMs` in all; then the delivery is given up (and may be redelivered).
 */
export interface WebhookRetryPolicy {
  readonly windowMs: number;
  readonly initialMs: number;
  readonly maxIntervalMs: number;
  /** One attempt's limit, connect to the last byte read. */
  readonly attemptTimeoutMs: number;
}

/**
 * One delivery run per endpoint and stream (an instance's events, its operations' with them): the
 * stream's events reach the endpoint one after the other, in the order they committed, each
 * retried until delivered or given up before the next is sent.
 */
export const webhookStreamWorkflowId = (endpointId: string, streamId: string) =>
  `webhook-delivery-${endpointId}-${streamId}`;

/** The signal that queues a delivery on its stream's run. */
export const DELIVERY_QUEUED_SIGNAL = 'deliveryQueued';

/** What the activity did with one delivery. */
export type DeliveryOutcome = 'delivered' | 'skipped' | 'cancelled';
