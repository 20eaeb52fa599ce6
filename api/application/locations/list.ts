import { commonErrors, jsonContent, listEnvelope } from '../../../wire/schemas.js';
import {
  AdminLocationEnvelope,
  serializeAdminLocation,
} from '../../../wire/serializers/catalogue/location.js';
import { locationListRoute } from '../../routes-kit/location-list-route.js';

export const { register } = locationListRoute({
  method: 'get',
  path: '/locations',
  tag: 'Locations',
  summary: 'List locations',
  description: 'Every location, by code, in one page.',
  responses: {
    200: jsonContent(listEnvelope(AdminLocationEnvelope, 'LocationList'), 'The locations.'),
    ...commonErrors,
  },
  serialize: serializeAdminLocation,
});
