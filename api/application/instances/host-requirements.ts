import { setHostRequirementsOfInstance } from '../../../services/instances/host-requirements.js';
import { hostRequirementsRoute } from '../host-requirements-route.js';

export const { register } = hostRequirementsRoute({
  resources: 'instances',
  param: 'instance',
  tag: 'Instances',
  summary: 'Set what binds an instance to its host',
  description:
    'Any tenant’s instance. The list replaces the one before (repeating it changes nothing); the migration ' +
    'preflight then reports a HOST_BOUND_* blocker for each requirement.',
  answered: "The instance's host requirements (`uuid` is the instance's).",
  set: (deps, instanceId, requirements) => setHostRequirementsOfInstance(deps, { instanceId, requirements }),
});
