import { setHostRequirementsOfInstance } from '../../../services/instances/host-requirements.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { HostRequirementsEnvelope } from '../../../wire/serializers/instances/host-requirements.js';
import { hostRequirementsRoute } from '../host-requirements-route.js';

export const { register } = hostRequirementsRoute({
  method: 'put',
  path: '/instances/{instance}/host-requirements',
  tag: 'Instances',
  summary: 'Set what binds an instance to its host',
  description:
    'Any tenant’s instance. The list replaces the one before (repeating it changes nothing); the migration ' +
    'preflight then reports a HOST_BOUND_* blocker for each requirement.',
  responses: {
    200: jsonContent(
      HostRequirementsEnvelope,
      "The instance's host requirements (`uuid` is the instance's).",
    ),
    ...commonErrors,
    ...notFoundResponse,
  },
  set: (deps, instanceId, requirements) => setHostRequirementsOfInstance(deps, { instanceId, requirements }),
});
