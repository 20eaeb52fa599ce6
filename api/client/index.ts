import { requireClientKey } from '../middleware/auth.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { createApiRouter } from '../router.js';
import * as listImages from './images/list.js';
import * as backupActions from './instances/backup-actions.js';
import * as restoreBackupAsNew from './instances/backup-restore-new.js';
import * as backupSchedules from './instances/backup-schedules.js';
import * as backups from './instances/backups.js';
import * as createInstance from './instances/create.js';
import * as deleteInstance from './instances/delete.js';
import * as instanceDiagnostics from './instances/diagnostics.js';
import * as instanceHistory from './instances/history.js';
import * as listInstances from './instances/list.js';
import * as instanceMetrics from './instances/metrics.js';
import * as regeneratePassword from './instances/password-regenerate.js';
import * as showPassword from './instances/password-show.js';
import * as powerInstance from './instances/power.js';
import * as rebuildInstance from './instances/rebuild.js';
import * as changeHostname from './instances/settings-hostname.js';
import * as renameInstance from './instances/settings-rename.js';
import * as changeTimezone from './instances/settings-timezone.js';
import * as showInstance from './instances/show.js';
import * as snapshots from './instances/snapshots.js';
import * as instanceSsh from './instances/ssh.js';
import * as createSshKey from './ssh-keys/create.js';
import * as deleteSshKey from './ssh-keys/delete.js';
import * as listSshKeys from './ssh-keys/list.js';
import * as updateSshKey from './ssh-keys/update.js';

/** The Client API (SPEC.md §4), mounted at /api/client/cloud. */
export function clientApi() {
  const app = createApiRouter();
  app.use('*', requireClientKey, limitAuthenticatedBody);
  // Account-level paths first: registered after `/{cloudInstance}`, `/images` would be taken for an id.
  for (const route of [listImages, listSshKeys, createSshKey, updateSshKey, deleteSshKey])
    route.register(app);
  for (const route of [listInstances, showInstance, powerInstance, instanceMetrics]) route.register(app);
  for (const route of [instanceSsh, renameInstance, changeHostname, changeTimezone]) route.register(app);
  for (const route of [createInstance, deleteInstance, rebuildInstance, showPassword, regeneratePassword])
    route.register(app);
  for (const route of [instanceHistory, instanceDiagnostics]) route.register(app);
  for (const route of [backups, backupActions, restoreBackupAsNew, backupSchedules, snapshots])
    route.register(app);
  return app;
}
