// Every workflow the worker runs. Workflow code imports domain/ only (and types).
export { deleteInstance } from './delete-instance.js';
export { migrateInstance } from './migrate-instance/migrate-instance.js';
export { powerInstance } from './power-instance.js';
export { probeHypervisor } from './probe-hypervisor.js';
export { provisionInstance } from './provision-instance.js';
export { rebuildInstance } from './rebuild-instance.js';
export { resetInstancePassword } from './reset-instance-password.js';
