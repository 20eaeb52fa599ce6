import { adminActor } from '../../auth/principals.js';
import { webhookRoutesFor } from '../../routes-kit/webhooks/routes.js';

/** The plane's webhook endpoints, registered by administrators: every event of every resource. */
export const webhookRoutes = webhookRoutesFor({
  asker: adminActor,
  listSummary: "List the plane's webhook endpoints",
  receives: 'It receives every event of the plane, of every customer’s resources.',
  audience: 'plane',
});
