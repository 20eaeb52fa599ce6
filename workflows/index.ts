// Every workflow the worker runs. Workflow code imports domain/ only (and types).
export { powerInstance } from './power-instance.js';
export { probeHypervisor } from './probe-hypervisor.js';
export { provisionInstance } from './provision-instance.js';
