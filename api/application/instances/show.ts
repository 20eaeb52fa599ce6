import { findPlacedInstance } from '../../../db/repositories/all-instances.js';
import {
  PlacedInstanceEnvelope,
  serializePlacedInstance,
} from '../../../wire/serializers/placed-instance.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'instances',
  param: 'instance',
  tag: 'Instances',
  summary: 'Show any tenant’s instance, with placement and running operation',
  envelope: PlacedInstanceEnvelope,
  find: findPlacedInstance,
  serialize: serializePlacedInstance,
});
