import { z } from 'zod';
import { invalidNetwork } from '../domain/media/iso-sources.js';

const ms = z.coerce.number().int().nonnegative();

/** CIDRs, comma-separated, checked as ISO_ALLOWED_NETWORKS is. */
const networks = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  )
  .refine((list) => invalidNetwork(list) === undefined, { message: 'Each entry must be a CIDR.' });

/**
 * Webhook endpoints and their deliveries (docs/events.md). The retry window is Standard Webhooks'
 * and Stripe's: about three days of exponential backoff, after which a delivery is given up (and
 * can be redelivered).
 */
export const webhookSettings = {
  /** Networks (CIDRs) the plane's own endpoints (Application API) may be at besides public addresses; `http` is taken there. */
  WEBHOOK_ALLOWED_NETWORKS: networks,
  /** The same for customers' endpoints (Client API): none by default, so theirs are public and https. */
  WEBHOOK_CUSTOMER_ALLOWED_NETWORKS: networks,
  /** How long a delivery is retried before it is given up. */
  WEBHOOK_RETRY_WINDOW_MS: ms.min(1_000).default(3 * 24 * 60 * 60 * 1000),
  /** The wait before the first retry; each next one waits twice as long, up to WEBHOOK_RETRY_MAX_INTERVAL_MS. */
  WEBHOOK_RETRY_INITIAL_MS: ms.min(100).default(5_000),
  WEBHOOK_RETRY_MAX_INTERVAL_MS: ms.min(100).default(60 * 60 * 1000),
  /** One attempt's limit, connect to the end of the response; a slower receiver's attempt fails. */
  WEBHOOK_TIMEOUT_MS: ms.min(100).max(60_000).default(10_000),
  /** After a secret is rotated, the old one signs beside the new one this long. */
  WEBHOOK_SECRET_OVERLAP_MS: ms.default(24 * 60 * 60 * 1000),
  /** Endpoints one owner (a customer, or the plane) may have; one more is refused with SVC-QUOTA-409. */
  WEBHOOK_ENDPOINTS_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** How long events, their deliveries and the delivery log are kept after the relay took them. */
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** How often the worker hands committed events on to their deliveries. */
  WEBHOOK_RELAY_INTERVAL_MS: ms.min(50).default(250),
};
