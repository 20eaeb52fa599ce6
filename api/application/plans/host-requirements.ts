import { setHostRequirementsOfPlan } from '../../../services/plans/host-requirements.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { HostRequirementsEnvelope } from '../../../wire/serializers/instances/host-requirements.js';
import { hostRequirementsRoute } from '../host-requirements-route.js';

export const { register } = hostRequirementsRoute({
  method: 'put',
  path: '/plans/{plan}/host-requirements',
  tag: 'Plans',
  summary: "Set what binds a plan's instances to their host",
  description:
    'Each instance created from the plan afterwards takes the list (instances made before keep theirs). The ' +
    'list replaces the one before; repeating it changes nothing.',
  responses: {
    200: jsonContent(HostRequirementsEnvelope, "The plan's host requirements (`uuid` is the plan's)."),
    ...commonErrors,
    ...notFoundResponse,
  },
  set: (deps, planId, requirements) => setHostRequirementsOfPlan(deps, { planId, requirements }),
});
