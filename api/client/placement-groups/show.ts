import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findPlacementGroupOfUser } from '../../../db/repositories/instances/placement-groups.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  PlacementGroupEnvelope,
  serializePlacementGroup,
} from '../../../wire/serializers/instances/placement-group.js';
import { customerId } from '../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/placement-groups/{placementGroup}',
  tags: ['Placement groups'],
  summary: 'Show a placement group',
  request: { params: uuidParam('placementGroup') },
  responses: {
    200: jsonContent(PlacementGroupEnvelope, 'The group.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { placementGroup } = c.req.valid('param');
    const group = await findPlacementGroupOfUser(c.get('deps').db, customerId(c), placementGroup);
    if (!group) throw notFound();
    return c.json(serializePlacementGroup(group), 200);
  });
}
