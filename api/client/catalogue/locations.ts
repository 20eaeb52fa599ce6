import { commonErrors, jsonContent, listEnvelope } from '../../../wire/schemas.js';
import { LocationEnvelope, serializeLocation } from '../../../wire/serializers/catalogue/location.js';
import { locationListRoute } from '../../routes-kit/location-list-route.js';

export const { register } = locationListRoute({
  method: 'get',
  path: '/locations',
  tag: 'Catalogue',
  summary: 'List the locations instances can be ordered in',
  description: 'Every location, by code, in one page: `POST /` takes its `code` as `location`.',
  responses: {
    200: jsonContent(listEnvelope(LocationEnvelope, 'ClientLocationList'), 'The locations.'),
    ...commonErrors,
  },
  serialize: serializeLocation,
});
