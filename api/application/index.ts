import { requireApplicationKey } from '../middleware/auth.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { APPLICATION_BASE } from '../paths.js';
import { createApiRouter, exceptUnder } from '../router.js';
import * as createHypervisor from './hypervisors/create.js';
import * as issueEnrollmentToken from './hypervisors/enrollment-token.js';
import * as listHypervisors from './hypervisors/list.js';
import * as setMaintenance from './hypervisors/maintenance.js';
import * as probeHypervisor from './hypervisors/probe.js';
import * as revokeAgent from './hypervisors/revoke-agent.js';
import * as showHypervisor from './hypervisors/show.js';
import * as updateHypervisor from './hypervisors/update.js';
import * as setInstanceHostRequirements from './instances/host-requirements.js';
import * as listLocations from './locations/list.js';
import * as createPlan from './plans/create.js';
import * as deletePlan from './plans/delete.js';
import * as setPlanHostRequirements from './plans/host-requirements.js';
import * as listPlans from './plans/list.js';
import * as showPlan from './plans/show.js';
import * as updatePlan from './plans/update.js';

/**
 * The Application API (SPEC.md §4), mounted at /api/application/cloudsvc. The console gateway's
 * internal routes live below the same prefix but outside this middleware (SPEC.md §4).
 */
export function applicationApi() {
  const app = createApiRouter();
  app.use('*', exceptUnder(APPLICATION_BASE, ['/console/internal'], requireApplicationKey));
  app.use('*', exceptUnder(APPLICATION_BASE, ['/console/internal'], limitAuthenticatedBody));
  for (const route of [
    listLocations,
    listHypervisors,
    createHypervisor,
    showHypervisor,
    updateHypervisor,
    setMaintenance,
    issueEnrollmentToken,
    revokeAgent,
    probeHypervisor,
    setInstanceHostRequirements,
    listPlans,
    createPlan,
    showPlan,
    updatePlan,
    deletePlan,
    setPlanHostRequirements,
  ]) {
    route.register(app);
  }
  return app;
}
