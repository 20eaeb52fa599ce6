import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createPlacementGroup } from '../../../services/instances/placement-groups.js';
import { CreatePlacementGroupBody } from '../../../wire/requests/placement-group.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import {
  PlacementGroupEnvelope,
  serializePlacementGroup,
} from '../../../wire/serializers/instances/placement-group.js';
import { customerActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/placement-groups',
  tags: ['Placement groups'],
  summary: 'Create a placement group',
  description:
    'A group of your instances in one location that placement spreads over hypervisors: an instance joins ' +
    'it when created with `placement_group`. Names are unique per account.',
  request: { body: jsonBody(CreatePlacementGroupBody) },
  responses: {
    201: jsonContent(PlacementGroupEnvelope, 'The group was created.'),
    ...commonErrors,
    ...conflictResponse('You have a placement group of this name (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const group = await createPlacementGroup(c.get('deps'), customerActor(c), {
      ...body,
      correlationId: c.get('requestId'),
    });
    return c.json(serializePlacementGroup(group), 201);
  });
}
