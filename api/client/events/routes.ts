import { customerId } from '../../auth/principals.js';
import { eventRoutesFor } from '../../routes-kit/events/routes.js';

/** A customer's events: their own resources' only. */
export const eventRoutes = eventRoutesFor({
  readerOf: customerId,
  shows: 'The events of your own resources, as your webhook endpoints receive them.',
});
