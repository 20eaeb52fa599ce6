import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listAllInstances } from '../../../db/repositories/instances/all-instances.js';
import { INSTANCE_STATUSES } from '../../../domain/instances/statuses.js';
import type { AppEnv } from '../../../http/context.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../../wire/keyset-list.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import {
  PlacedInstanceEnvelope,
  serializePlacedInstance,
} from '../../../wire/serializers/instances/placed-instance.js';
import { z } from '../../../wire/zod.js';

const InstanceListQuery = keysetQuery({
  user: z.string().uuid().optional().openapi({ description: 'Instances of this user.' }),
  hypervisor: z.string().uuid().optional().openapi({ description: 'Instances placed on this hypervisor.' }),
  location: z.string().uuid().optional().openapi({ description: 'Instances in this location.' }),
  status: z.enum(INSTANCE_STATUSES).optional(),
  suspended: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: 'Only suspended ones, or only not.' }),
});

const route = createRoute({
  method: 'get',
  path: '/instances',
  tags: ['Instances'],
  summary: "List every tenant's instances",
  description:
    'Newest first, with owner, placement and running operation; filtered by `user`, `hypervisor`, `location`, ' +
    '`status` and `suspended` (the filters combine). Paginated with `page` and `per_page`, or read on with ' +
    '`cursor` (keyset; docs/api.md "Conventions").',
  request: { query: InstanceListQuery },
  responses: {
    200: jsonContent(
      keysetListEnvelope(PlacedInstanceEnvelope, 'PlacedInstanceList'),
      'A page of instances.',
    ),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const request = listRequestOf(query);
    const page = await listAllInstances(
      c.get('deps').db,
      {
        userId: query.user,
        hypervisorId: query.hypervisor,
        locationId: query.location,
        status: query.status,
        ...(query.suspended ? { suspended: query.suspended === 'true' } : {}),
      },
      request,
    );
    return c.json(keysetListBody(request, page, page.rows.map(serializePlacedInstance)), 200);
  });
}
