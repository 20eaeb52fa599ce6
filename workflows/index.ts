// Every workflow the worker runs. Workflow code imports domain/ only (and types).
export { backupInstance } from './backup-instance.js';
export { checkProvider } from './check-provider.js';
export { deleteBackup } from './delete-backup.js';
export { deleteInstance } from './delete-instance.js';
export { deleteSnapshot } from './delete-snapshot.js';
export { cleanUpMigrationSource } from './migrate-instance/cleanup.js';
export { migrateInstance } from './migrate-instance/migrate-instance.js';
export { powerInstance } from './power-instance.js';
export { probeHypervisor } from './probe-hypervisor.js';
export { provisionInstance } from './provision-instance.js';
export { rebuildInstance } from './rebuild-instance.js';
export { resetInstancePassword } from './reset-instance-password.js';
export { restoreInstance } from './restore-instance.js';
export { scheduledBackup } from './scheduled-backup.js';
export { snapshotInstance } from './snapshot-instance.js';
export { verifyBackup } from './verify-backup.js';
