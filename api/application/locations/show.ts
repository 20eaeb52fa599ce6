import { findLocation } from '../../../db/repositories/locations.js';
import { LocationEnvelope, serializeLocation } from '../../../wire/serializers/location.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'locations',
  param: 'location',
  tag: 'Locations',
  summary: 'Show a location',
  envelope: LocationEnvelope,
  find: findLocation,
  serialize: serializeLocation,
});
