import { findLocation } from '../../../db/repositories/catalogue/locations.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import {
  AdminLocationEnvelope,
  serializeAdminLocation,
} from '../../../wire/serializers/catalogue/location.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/locations/{location}',
  tag: 'Locations',
  summary: 'Show a location',
  responses: {
    200: jsonContent(AdminLocationEnvelope, 'The location.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findLocation,
  serialize: serializeAdminLocation,
});
