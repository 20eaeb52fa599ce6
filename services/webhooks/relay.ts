import { lockPendingEvents, markEventsRelayed } from '../../db/repositories/events/outbox.js';
import {
  insertDeliveriesOf,
  listDeliveriesToHandOver,
  markHandedOver,
} from '../../db/repositories/events/webhook-deliveries.js';
import {
  DELIVERY_QUEUED_SIGNAL,
  type WebhookRetryPolicy,
  webhookStreamWorkflowId,
} from '../../domain/events/delivery.js';
import type { Config } from '../../platform/config.js';
import type { ServiceDeps } from '../context.js';
import { signalWithStart } from '../workflow-starts.js';

/** Events taken from the outbox, and deliveries handed to Temporal, per pass. */
const BATCH = 200;
/** Streams handed over at once in a pass (each its own run, so their order does not matter). */
const HANDOVER_STREAMS = 8;

export const webhookRetryPolicy = (config: Config): WebhookRetryPolicy => ({
  windowMs: config.WEBHOOK_RETRY_WINDOW_MS,
  initialMs: config.WEBHOOK_RETRY_INITIAL_MS,
  maxIntervalMs: config.WEBHOOK_RETRY_MAX_INTERVAL_MS,
  attemptTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
});

export interface RelayPass {
  readonly events: number;
  readonly handedOver: number;
}

/**
 * The outbox relay (docs/events.md "Delivery"), run by the worker every WEBHOOK_RELAY_INTERVAL_MS.
 * First, in one transaction, committed events become deliveries (one per endpoint that wants
 * each) and leave the outbox's pending set. Then, with no transaction open, each delivery not yet
 * held by Temporal is queued on its stream's run and marked handed over, a stream's in the order of
 * its events, several streams at once. A crash between any two
 * steps leaves the event or the delivery where the next pass takes it up again; a delivery
 * handed over twice is sent once (the run finds it delivered). Several workers may relay at once:
 * the outbox rows are locked with SKIP LOCKED.
 */
export async function relayEvents(deps: ServiceDeps): Promise<RelayPass> {
  const events = await deps.db.transaction().execute(async (trx) => {
    const pending = await lockPendingEvents(trx, BATCH);
    const ids = pending.map((e) => e.id);
    await insertDeliveriesOf(trx, ids);
    await markEventsRelayed(trx, ids);
    return ids.length;
  });

  const policy = webhookRetryPolicy(deps.config);
  // Each stream's deliveries reach its run one at a time, in the order of their events; streams are
  // handed over side by side, HANDOVER_STREAMS at once: one after another, the Temporal round trip
  // of each hand-over capped the relay at about ten events a second (docs/performance.md "Events").
  const streams = new Map<string, Awaited<ReturnType<typeof listDeliveriesToHandOver>>>();
  for (const delivery of await listDeliveriesToHandOver(deps.db, BATCH)) {
    const workflowId = webhookStreamWorkflowId(delivery.endpoint_id, delivery.stream_id);
    streams.set(workflowId, [...(streams.get(workflowId) ?? []), delivery]);
  }
  const queue = [...streams];
  let handedOver = 0;
  const handOver = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [workflowId, deliveries] = next;
      for (const delivery of deliveries) {
        await signalWithStart(
          deps,
          {
            type: 'deliverWebhooks',
            workflowId,
            input: { endpointId: delivery.endpoint_id, streamId: delivery.stream_id, policy, pending: [] },
            searchAttributes: { instance: delivery.stream_id },
            correlationId: null,
          },
          { name: DELIVERY_QUEUED_SIGNAL, args: [delivery.id] },
        );
        await markHandedOver(deps.db, delivery.id);
        handedOver++;
      }
    }
  };
  // All settle before a failure is told: the next pass must not find a stream still being handed over.
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(HANDOVER_STREAMS, queue.length) }, () =>
      handOver().catch((error: unknown) => {
        queue.length = 0;
        throw error;
      }),
    ),
  );
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return { events, handedOver };
}
