import { requireClientKey } from '../middleware/auth.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { createApiRouter } from '../router.js';
import * as listLocations from './catalogue/locations.js';
import * as listPlans from './catalogue/plans.js';
import * as attachFloatingIp from './floating-ips/attach.js';
import * as detachFloatingIp from './floating-ips/detach.js';
import * as listFloatingIps from './floating-ips/list.js';
import * as moveFloatingIp from './floating-ips/move.js';
import * as listImages from './images/list.js';
import * as instanceActivity from './instances/activity.js';
import * as createBackupSchedule from './instances/backup-schedules/create.js';
import * as deleteBackupSchedule from './instances/backup-schedules/delete.js';
import * as listBackupSchedules from './instances/backup-schedules/list.js';
import * as updateBackupSchedule from './instances/backup-schedules/update.js';
import * as createBackup from './instances/backups/create.js';
import * as deleteBackup from './instances/backups/delete.js';
import * as listBackups from './instances/backups/list.js';
import * as protectBackup from './instances/backups/protect.js';
import * as restoreBackup from './instances/backups/restore.js';
import * as restoreBackupAsNew from './instances/backups/restore-new.js';
import * as verifyBackup from './instances/backups/verify.js';
import * as instanceBandwidth from './instances/bandwidth.js';
import * as createInstance from './instances/create.js';
import * as deleteInstance from './instances/delete.js';
import * as instanceDiagnostics from './instances/diagnostics.js';
import * as clearFirewallEnabled from './instances/firewall/enabled-clear.js';
import * as setFirewallEnabled from './instances/firewall/enabled-set.js';
import * as showFirewallEnabled from './instances/firewall/enabled-show.js';
import * as replaceFirewall from './instances/firewall/replace.js';
import * as resetFirewall from './instances/firewall/reset.js';
import * as clearFirewallRules from './instances/firewall/rules-clear.js';
import * as replaceFirewallRules from './instances/firewall/rules-replace.js';
import * as showFirewallRules from './instances/firewall/rules-show.js';
import * as showFirewall from './instances/firewall/show.js';
import * as listInstances from './instances/list.js';
import * as instanceMetrics from './instances/metrics.js';
import * as attachAddress from './instances/network/attach.js';
import * as detachAddress from './instances/network/detach.js';
import * as listAddresses from './instances/network/list.js';
import * as networkOverview from './instances/network/overview.js';
import * as promoteAddress from './instances/network/promote.js';
import * as setReverseDns from './instances/network/rdns.js';
import * as powerInstance from './instances/power.js';
import * as rebuildInstance from './instances/rebuild.js';
import { scheduledActionRoutes } from './instances/schedules/routes.js';
import * as changeHostname from './instances/settings/hostname.js';
import * as regeneratePassword from './instances/settings/password-regenerate.js';
import * as showPassword from './instances/settings/password-show.js';
import * as renameInstance from './instances/settings/rename.js';
import * as changeTimezone from './instances/settings/timezone.js';
import * as showInstance from './instances/show.js';
import * as createSnapshot from './instances/snapshots/create.js';
import * as deleteSnapshot from './instances/snapshots/delete.js';
import * as listSnapshots from './instances/snapshots/list.js';
import * as restoreSnapshot from './instances/snapshots/restore.js';
import * as instanceSsh from './instances/ssh.js';
import { storageRoutes } from './instances/storage/routes.js';
import * as instanceTasks from './instances/tasks.js';
import * as attachPrivateNetwork from './private-networks/attach.js';
import * as createPrivateNetwork from './private-networks/create.js';
import * as deletePrivateNetwork from './private-networks/delete.js';
import * as detachPrivateNetwork from './private-networks/detach.js';
import * as listPrivateNetworks from './private-networks/list.js';
import * as showPrivateNetwork from './private-networks/show.js';
import * as createSshKey from './ssh-keys/create.js';
import * as deleteSshKey from './ssh-keys/delete.js';
import * as listSshKeys from './ssh-keys/list.js';
import * as updateSshKey from './ssh-keys/update.js';

/** The Client API (SPEC.md §4), mounted at /api/client/cloud. */
export function clientApi() {
  const app = createApiRouter();
  app.use('*', requireClientKey, limitAuthenticatedBody);
  const routes = [
    // Account-level paths first: registered after `/{cloudInstance}`, `/images` would be taken for an id.
    listImages,
    listPlans,
    listLocations,
    listSshKeys,
    createSshKey,
    updateSshKey,
    deleteSshKey,
    listFloatingIps,
    attachFloatingIp,
    detachFloatingIp,
    moveFloatingIp,
    listPrivateNetworks,
    createPrivateNetwork,
    showPrivateNetwork,
    deletePrivateNetwork,
    attachPrivateNetwork,
    detachPrivateNetwork,
    // Instances.
    listInstances,
    createInstance,
    showInstance,
    deleteInstance,
    powerInstance,
    rebuildInstance,
    instanceMetrics,
    instanceActivity,
    instanceTasks,
    instanceDiagnostics,
    instanceSsh,
    // Settings.
    renameInstance,
    changeHostname,
    changeTimezone,
    showPassword,
    regeneratePassword,
    // Backups, their schedules, snapshots.
    listBackups,
    createBackup,
    restoreBackup,
    restoreBackupAsNew,
    verifyBackup,
    protectBackup,
    deleteBackup,
    listBackupSchedules,
    createBackupSchedule,
    updateBackupSchedule,
    deleteBackupSchedule,
    listSnapshots,
    createSnapshot,
    restoreSnapshot,
    deleteSnapshot,
    // Network.
    networkOverview,
    listAddresses,
    attachAddress,
    detachAddress,
    promoteAddress,
    setReverseDns,
    instanceBandwidth,
    // Firewall.
    showFirewall,
    replaceFirewall,
    resetFirewall,
    showFirewallRules,
    replaceFirewallRules,
    clearFirewallRules,
    showFirewallEnabled,
    setFirewallEnabled,
    clearFirewallEnabled,
    // Storage.
    ...storageRoutes,
    // Scheduled power actions.
    ...scheduledActionRoutes,
  ];
  for (const route of routes) route.register(app);
  return app;
}
