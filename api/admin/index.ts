import { ADMIN_BASE } from '../../wire/paths.js';
import { requireApplicationKey } from '../auth/middleware.js';
import { apiVersions } from '../middleware/api-version.js';
import { limitAuthenticatedBody } from '../middleware/body-limit.js';
import { createApiRouter } from '../routes-kit/router.js';
import * as startBackendDrain from './evacuations/backend-drain.js';
import * as planBackendDrain from './evacuations/backend-plan.js';
import * as controlEvacuation from './evacuations/control.js';
import * as listEvacuations from './evacuations/list.js';
import * as planEvacuation from './evacuations/plan.js';
import * as restoreEvacuation from './evacuations/restore.js';
import * as showEvacuation from './evacuations/show.js';
import * as startEvacuation from './evacuations/start.js';
import * as listMigrations from './migrations/list.js';
import * as preflightMigration from './migrations/preflight.js';
import * as recoverMigration from './migrations/recover.js';
import * as requestMigration from './migrations/request.js';
import * as showMigration from './migrations/show.js';
import * as undoMigration from './migrations/undo.js';
import * as listStorageMoves from './storage-moves/list.js';
import * as preflightStorageMove from './storage-moves/preflight.js';
import * as recoverStorageMove from './storage-moves/recover.js';
import * as requestStorageMove from './storage-moves/request.js';
import * as showStorageMove from './storage-moves/show.js';
import * as undoStorageMove from './storage-moves/undo.js';

/**
 * The admin migration paths (SPEC.md §4 "Migration admin API"), the evacuations of hypervisors and
 * the storage moves of instances, mounted at /admin/cloudsvc: admin-only.
 */
export function adminApi() {
  const app = createApiRouter();
  app.use('*', apiVersions('admin', ADMIN_BASE), requireApplicationKey, limitAuthenticatedBody);
  for (const route of [
    preflightMigration,
    requestMigration,
    listMigrations,
    showMigration,
    undoMigration,
    recoverMigration,
    planEvacuation,
    startEvacuation,
    listEvacuations,
    showEvacuation,
    controlEvacuation,
    restoreEvacuation,
    planBackendDrain,
    startBackendDrain,
    preflightStorageMove,
    requestStorageMove,
    listStorageMoves,
    showStorageMove,
    undoStorageMove,
    recoverStorageMove,
  ]) {
    route.register(app);
  }
  return app;
}
