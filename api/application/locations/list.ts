import { locationListRoute } from '../../routes-kit/location-list-route.js';

export const { register } = locationListRoute({
  tag: 'Locations',
  summary: 'List locations',
  description: 'Every location, by code, in one page.',
  listName: 'LocationList',
});
