import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createLocation } from '../../../services/catalogue/locations.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import {
  AdminLocationEnvelope,
  serializeAdminLocation,
} from '../../../wire/serializers/catalogue/location.js';
import { LocationCreateFields } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/locations',
  tags: ['Locations'],
  summary: 'Create a location',
  description:
    'Customers order in it by `code` (`GET /locations` of the Client API lists it at once) once a ' +
    'hypervisor registered in it is online and an IP pool of it has free addresses.',
  request: { body: jsonBody(LocationCreateFields) },
  responses: {
    201: jsonContent(AdminLocationEnvelope, 'The location.'),
    ...commonErrors,
    ...conflictResponse('A location with this code exists (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await createLocation(c.get('deps'), c.req.valid('json'));
    return c.json(serializeAdminLocation(row), 201);
  });
}
