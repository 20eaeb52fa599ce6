import { locationListRoute } from '../../routes-kit/location-list-route.js';

export const { register } = locationListRoute({
  tag: 'Catalogue',
  summary: 'List the locations instances can be ordered in',
  description: 'Every location, by code, in one page: `POST /` takes its `code` as `location`.',
  listName: 'ClientLocationList',
});
