import { requireClientKey } from '../middleware/auth.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { createApiRouter } from '../router.js';
import * as listInstances from './instances/list.js';
import * as instanceMetrics from './instances/metrics.js';
import * as powerInstance from './instances/power.js';
import * as showInstance from './instances/show.js';

/** The Client API (SPEC.md §4), mounted at /api/client/cloud. */
export function clientApi() {
  const app = createApiRouter();
  app.use('*', requireClientKey, limitAuthenticatedBody);
  for (const route of [listInstances, showInstance, powerInstance, instanceMetrics]) route.register(app);
  return app;
}
