import { recordActivity } from '../../db/repositories/events/activity-log.js';
import { reopenDelivery } from '../../db/repositories/events/webhook-deliveries.js';
import { findEndpointOf } from '../../db/repositories/events/webhook-endpoints.js';
import { type Asker, actorName } from '../../domain/actors.js';
import { notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { ownerOf } from './endpoints.js';

/**
 * Sends a delivery again (docs/events.md "Delivery log and redelivery"): it becomes pending and is
 * handed to its stream by the relay, with the same `webhook-id` and body, after whatever the stream
 * is sending now. One still pending is left to its retries. Nothing here calls Temporal: the
 * relay does, after this commits.
 */
export async function redeliver(
  deps: Pick<ServiceDeps, 'db'>,
  asker: Asker,
  request: {
    readonly endpointId: string;
    readonly deliveryId: string;
    readonly correlationId: string | null;
  },
) {
  return deps.db.transaction().execute(async (trx) => {
    const endpoint = await findEndpointOf(trx, ownerOf(asker), request.endpointId);
    if (!endpoint) throw notFound();
    const delivery = await reopenDelivery(trx, endpoint.id, request.deliveryId);
    if (!delivery) throw notFound();
    await recordActivity(trx, {
      userId: asker.userId,
      actor: actorName(asker),
      event: 'webhook_delivery.redelivered',
      detail: { webhook_endpoint_id: endpoint.id, webhook_delivery_id: delivery.id },
      correlationId: request.correlationId,
    });
    return delivery;
  });
}
