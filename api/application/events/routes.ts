import { eventRoutesFor } from '../../routes-kit/events/routes.js';

/** Every event of the plane, of every customer's resources. */
export const eventRoutes = eventRoutesFor({
  readerOf: () => null,
  shows: 'Every event of the plane, of every customer’s resources, as its webhook endpoints receive them.',
});
