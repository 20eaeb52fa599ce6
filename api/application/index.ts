import { APPLICATION_BASE } from '../../wire/paths.js';
import { requireApplicationKey } from '../auth/middleware.js';
import { apiVersions } from '../middleware/api-version.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { createApiRouter, exceptUnder } from '../routes-kit/router.js';
import { consoleSessionRoutes } from './console/routes.js';
import { eventRoutes } from './events/routes.js';
import { firewallRoutes } from './firewall/routes.js';
import { floatingIpRoutes } from './floating-ips/routes.js';
import { hypervisorRoutes } from './hypervisors/routes.js';
import { imageRoutes } from './images/routes.js';
import { instanceRoutes } from './instances/routes.js';
import { ipPoolRoutes } from './ip-pools/routes.js';
import { isoRoutes } from './isos/routes.js';
import { locationRoutes } from './locations/routes.js';
import { networkRoutes } from './networks/routes.js';
import { overviewRoutes } from './overview/routes.js';
import { planRoutes } from './plans/routes.js';
import { providerRoutes } from './providers/routes.js';
import { reverseDnsRoutes } from './rdns/routes.js';
import { reservationRoutes } from './reservations/routes.js';
import { schedulerRoutes } from './scheduler/routes.js';
import { storageRoutes } from './storage/routes.js';
import { taskRoutes } from './tasks/routes.js';
import { usageRoutes } from './usage/routes.js';
import { userRoutes } from './users/routes.js';
import { volumeRoutes } from './volumes/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

/**
 * The Application API (SPEC.md §4), mounted at /api/application/cloudsvc. The console gateway's
 * internal routes live below the same prefix but outside this middleware (SPEC.md §4).
 */
export function applicationApi() {
  const app = createApiRouter();
  app.use(
    '*',
    exceptUnder(APPLICATION_BASE, ['/console/internal'], apiVersions('application', APPLICATION_BASE)),
  );
  app.use('*', exceptUnder(APPLICATION_BASE, ['/console/internal'], requireApplicationKey));
  app.use('*', exceptUnder(APPLICATION_BASE, ['/console/internal'], limitAuthenticatedBody));
  // One list per route group of SPEC.md §4, each in its folder.
  for (const group of [
    overviewRoutes,
    locationRoutes,
    hypervisorRoutes,
    instanceRoutes,
    planRoutes,
    imageRoutes,
    ipPoolRoutes,
    networkRoutes,
    floatingIpRoutes,
    reverseDnsRoutes,
    firewallRoutes,
    userRoutes,
    providerRoutes,
    taskRoutes,
    reservationRoutes,
    storageRoutes,
    volumeRoutes,
    isoRoutes,
    consoleSessionRoutes,
    schedulerRoutes,
    webhookRoutes,
    eventRoutes,
    usageRoutes,
  ]) {
    for (const route of group) route.register(app);
  }
  return app;
}
