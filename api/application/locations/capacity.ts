import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { locationCapacity } from '../../../services/scheduler/location-capacity.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  LocationCapacityEnvelope,
  serializeLocationCapacity,
} from '../../../wire/serializers/catalogue/location-capacity.js';

const route = createRoute({
  method: 'get',
  path: '/locations/{location}/capacity',
  tags: ['Locations'],
  summary: 'How many more of each plan could be ordered in a location now',
  description:
    'For each public plan offered in the location (its own and those of every location), by code: how many ' +
    'more instances of it could be placed now, by the rule an order’s placement runs (online hypervisors not ' +
    'in maintenance, each plan’s cores, memory and disk against the room their active reservations leave), ' +
    'and no more than the location’s free IPv4 addresses. Each plan is counted alone: ordering one takes room ' +
    'from the others. A best case at this instant, read without locks, not a reservation: an order a moment ' +
    'later may find the room taken. An image with versions is placed only where its version is ready, which ' +
    'may narrow it further (docs/api.md "Stock per location").',
  request: { params: uuidParam('location') },
  responses: {
    200: jsonContent(LocationCapacityEnvelope, 'The stock of each plan.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const capacity = await locationCapacity(c.get('deps'), c.req.valid('param').location);
    return c.json(serializeLocationCapacity(capacity), 200);
  });
}
