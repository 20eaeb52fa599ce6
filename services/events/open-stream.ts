import { findLastAssignedSeq, findPrunedThrough } from '../../db/repositories/events/outbox-reads.js';
import { ApiError } from '../../domain/errors.js';
import type { EventFilter } from '../../domain/events/filter.js';
import type { ServiceDeps } from '../context.js';
import type { EventFeed } from './feed.js';
import { EventSubscription } from './subscription.js';

export interface EventStreamDeps extends ServiceDeps {
  readonly events: EventFeed;
}

/** Why a stream did not resume where its client asked (docs/events.md "Resuming"). */
export type StreamReset = { readonly reason: 'expired' | 'unknown'; readonly horizon: number };

export interface OpenedStream {
  readonly subscription: EventSubscription;
  /** Set when the stream starts at the horizon instead of after the client's Last-Event-ID. */
  readonly reset: StreamReset | undefined;
  close(): void;
}

/**
 * Opens one event stream for the key `keyId` (docs/events.md "The stream"): after `lastEventId`
 * when the events after it are all still kept, else, and without one, at the horizon. A key holds
 * at most EVENT_STREAMS_PER_KEY streams on this process; one more is 429.
 */
export async function openEventStream(
  deps: EventStreamDeps,
  request: { readonly keyId: string; readonly filter: EventFilter; readonly lastEventId: number | undefined },
): Promise<OpenedStream> {
  const { config, db, events } = deps;
  await events.ready();
  const [prunedThrough, lastAssigned] =
    request.lastEventId === undefined
      ? [0, 0]
      : await Promise.all([findPrunedThrough(db), findLastAssignedSeq(db)]);
  const subscription = new EventSubscription(db, request.filter, config.EVENT_STREAM_BUFFER);
  const subscribed = events.subscribe(subscription, {
    key: request.keyId,
    max: config.EVENT_STREAMS_PER_KEY,
  });
  if (!subscribed) {
    throw new ApiError('SVC-REQ-429', {
      detail: `At most ${config.EVENT_STREAMS_PER_KEY} event streams may be open per key; close one first.`,
      headers: { 'Retry-After': String(Math.ceil(config.EVENT_STREAM_HEARTBEAT_MS / 1000)) },
    });
  }
  const { horizon } = subscribed;
  const reset: StreamReset | undefined =
    request.lastEventId === undefined
      ? undefined
      : request.lastEventId < prunedThrough
        ? { reason: 'expired', horizon }
        : request.lastEventId > lastAssigned
          ? { reason: 'unknown', horizon }
          : undefined;
  subscription.start(reset || request.lastEventId === undefined ? horizon : request.lastEventId, horizon);
  return { subscription, reset, close: subscribed.unsubscribe };
}
