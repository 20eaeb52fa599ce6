import { customerActor } from '../../auth/principals.js';
import { webhookRoutesFor } from '../../routes-kit/webhooks/routes.js';

/** A customer's webhook endpoints: the events of their own resources. */
export const webhookRoutes = webhookRoutesFor({
  asker: customerActor,
  listSummary: "List the caller's webhook endpoints",
  receives: 'It receives the events of your own resources only.',
  audience: 'customer',
});
