import {
  ActivityFailure,
  condition,
  continueAsNew,
  defineSignal,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { DELIVERY_QUEUED_SIGNAL, type WebhookRetryPolicy } from '../domain/events/delivery.js';
import { step } from './lib/operation.js';
import { bookkeeping, webhookStep } from './lib/steps.js';

export interface DeliverWebhooksInput {
  readonly endpointId: string;
  /** The instance whose events (its own and its operations') this run delivers, in order. */
  readonly streamId: string;
  readonly policy: WebhookRetryPolicy;
  /** Deliveries queued before a continue-as-new, in their order. */
  readonly pending: readonly string[];
}

export const deliveryQueued = defineSignal<[deliveryId: string]>(DELIVERY_QUEUED_SIGNAL);

/** How long a run with nothing queued waits for the stream's next event before it ends. */
const IDLE = '1 minute';
/** Deliveries one run makes before it continues as new, so its history stays short. */
const DELIVERIES_PER_RUN = 200;

/**
 * Runbook (docs/events.md "Delivery"): take the stream's deliveries in the order the relay queued
 * them (the order their events committed); send each until the endpoint answers 2xx or its retry
 * window closes, then give it up; only then the next. A delivery queued twice (a hand-over
 * repeated after a crash) is sent once: the activity finds it delivered.
 */
export async function deliverWebhooks(input: DeliverWebhooksInput): Promise<number> {
  const queue = [...input.pending];
  setHandler(deliveryQueued, (deliveryId) => {
    if (!queue.includes(deliveryId)) queue.push(deliveryId);
  });
  let handled = 0;
  for (;;) {
    if (queue.length === 0) await condition(() => queue.length > 0, IDLE);
    if (queue.length === 0) return handled;
    if (handled >= DELIVERIES_PER_RUN || workflowInfo().continueAsNewSuggested)
      await continueAsNew<typeof deliverWebhooks>({ ...input, pending: queue });
    const deliveryId = queue[0]!;
    step(`Delivering ${deliveryId}`);
    try {
      await webhookStep(input.policy).attemptWebhookDelivery(deliveryId);
    } catch (error) {
      // The window closed without a 2xx (the last attempt's failure is in the delivery log).
      if (!(error instanceof ActivityFailure)) throw error;
      step(`Giving up ${deliveryId}`);
      await bookkeeping().giveUpWebhookDelivery(deliveryId);
    }
    queue.shift();
    handled++;
  }
}
