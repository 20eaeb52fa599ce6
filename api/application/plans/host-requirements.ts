import { setHostRequirementsOfPlan } from '../../../services/plans/host-requirements.js';
import { hostRequirementsRoute } from '../host-requirements-route.js';

export const { register } = hostRequirementsRoute({
  resources: 'plans',
  param: 'plan',
  tag: 'Plans',
  summary: "Set what binds a plan's instances to their host",
  description:
    'Each instance created from the plan afterwards takes the list (instances made before keep theirs). The ' +
    'list replaces the one before; repeating it changes nothing.',
  answered: "The plan's host requirements (`uuid` is the plan's).",
  set: (deps, planId, requirements) => setHostRequirementsOfPlan(deps, { planId, requirements }),
});
