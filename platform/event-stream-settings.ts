import { z } from 'zod';

const ms = z.coerce.number().int().nonnegative();

/**
 * The event stream (`GET …/events` as Server-Sent Events; docs/events.md "The stream"). Its
 * events are the outbox's, kept EVENT_RETENTION_DAYS (webhook-settings.ts).
 */
export const eventStreamSettings = {
  /**
   * How often an idle stream sends a comment, so proxies keep it open; at the same beat it checks
   * that its key still stands, so a revoked key's stream ends within this plus AUTH_CACHE_TTL_MS.
   */
  EVENT_STREAM_HEARTBEAT_MS: ms.min(100).max(300_000).default(15_000),
  /** Streams one key may hold open on one API process; one more is refused with SVC-REQ-429. */
  EVENT_STREAMS_PER_KEY: z.coerce.number().int().min(1).max(1_000).default(5),
  /** Events one stream may have waiting for its client; past it the client is too slow and the stream ends. */
  EVENT_STREAM_BUFFER: z.coerce.number().int().min(1).max(100_000).default(1_000),
  /** How often the process looks for new events when no notification came (one query for all streams). */
  EVENT_STREAM_SWEEP_MS: ms.min(50).max(60_000).default(1_000),
};
