import { findPlacedInstance } from '../../../db/repositories/instances/all-instances.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import {
  PlacedInstanceEnvelope,
  serializePlacedInstance,
} from '../../../wire/serializers/instances/placed-instance.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/instances/{instance}',
  tag: 'Instances',
  summary: 'Show any tenant’s instance, with placement and running operation',
  responses: {
    200: jsonContent(PlacedInstanceEnvelope, 'The instance.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findPlacedInstance,
  serialize: serializePlacedInstance,
});
