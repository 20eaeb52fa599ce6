import { listHypervisorNames } from '../../db/repositories/hypervisors/hypervisors.js';
import type { ServiceDeps } from '../context.js';

/** Every hypervisor by name, for an administrator to pick one (the admin pages' filters). */
export const listHypervisorChoices = (deps: Pick<ServiceDeps, 'db'>) => listHypervisorNames(deps.db);
