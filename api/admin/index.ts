import { requireApplicationKey } from '../middleware/auth.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { createApiRouter } from '../router.js';

/** The admin migration paths (SPEC.md §4 "Migration admin API"), mounted at /admin/cloudsvc: admin-only. */
export function adminApi() {
  const app = createApiRouter();
  app.use('*', requireApplicationKey, limitAuthenticatedBody);
  return app;
}
