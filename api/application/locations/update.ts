import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { editLocation } from '../../../services/catalogue/locations.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  AdminLocationEnvelope,
  serializeAdminLocation,
} from '../../../wire/serializers/catalogue/location.js';
import { LocationUpdateFields } from './fields.js';

const route = createRoute({
  method: 'patch',
  path: '/locations/{location}',
  tags: ['Locations'],
  summary: 'Change a location',
  description:
    'The name and the DNS provider may change; the code, which customers order by, stays. Another DNS ' +
    'provider publishes nothing by itself: `POST /locations/{location}/rdns/resync` pushes every record to it.',
  request: { params: uuidParam('location'), body: jsonBody(LocationUpdateFields) },
  responses: {
    200: jsonContent(AdminLocationEnvelope, 'The location.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await editLocation(c.get('deps'), c.req.valid('param').location, c.req.valid('json'));
    return c.json(serializeAdminLocation(row), 200);
  });
}
