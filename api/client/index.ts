import { CLIENT_BASE } from '../../wire/paths.js';
import { requireClientKey } from '../auth/middleware.js';
import { apiVersions } from '../middleware/api-version.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { createApiRouter } from '../routes-kit/router.js';
import { accountRoutes } from './account/routes.js';
import { catalogueRoutes } from './catalogue/routes.js';
import { eventRoutes } from './events/routes.js';
import { floatingIpRoutes } from './floating-ips/routes.js';
import { backupScheduleRoutes } from './instances/backup-schedules/routes.js';
import { backupRoutes } from './instances/backups/routes.js';
import { consoleRoutes } from './instances/console/routes.js';
import { firewallRoutes } from './instances/firewall/routes.js';
import { mediaRoutes } from './instances/media/routes.js';
import { networkRoutes } from './instances/network/routes.js';
import { rescueRoutes } from './instances/rescue/routes.js';
import { resizeRoutes } from './instances/resize/routes.js';
import { instanceRoutes } from './instances/routes.js';
import { scheduledActionRoutes } from './instances/schedules/routes.js';
import { settingsRoutes } from './instances/settings/routes.js';
import { snapshotRoutes } from './instances/snapshots/routes.js';
import { storageRoutes } from './instances/storage/routes.js';
import { placementGroupRoutes } from './placement-groups/routes.js';
import { privateNetworkRoutes } from './private-networks/routes.js';
import { sshKeyRoutes } from './ssh-keys/routes.js';
import { volumeRoutes } from './volumes/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

/** The Client API (SPEC.md §4), mounted at /api/client/cloud: one list per route group, each in its folder. */
export function clientApi() {
  const app = createApiRouter();
  app.use('*', apiVersions('client', CLIENT_BASE), requireClientKey, limitAuthenticatedBody);
  for (const group of [
    // Account-level paths first: registered after `/{cloudInstance}`, `/images` would be taken for an id.
    accountRoutes,
    catalogueRoutes,
    sshKeyRoutes,
    floatingIpRoutes,
    privateNetworkRoutes,
    placementGroupRoutes,
    volumeRoutes,
    webhookRoutes,
    eventRoutes,
    // Instances, then what each has.
    instanceRoutes,
    settingsRoutes,
    backupRoutes,
    backupScheduleRoutes,
    snapshotRoutes,
    networkRoutes,
    firewallRoutes,
    storageRoutes,
    resizeRoutes,
    mediaRoutes,
    rescueRoutes,
    scheduledActionRoutes,
    consoleRoutes,
  ]) {
    for (const route of group) route.register(app);
  }
  return app;
}
