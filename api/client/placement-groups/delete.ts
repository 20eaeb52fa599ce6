import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { deletePlacementGroup } from '../../../services/instances/placement-groups.js';
import { commonErrors, conflictResponse, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { customerActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'delete',
  path: '/placement-groups/{placementGroup}',
  tags: ['Placement groups'],
  summary: 'Delete a placement group',
  description: 'Only a group no instance is in: delete its instances first.',
  request: { params: uuidParam('placementGroup') },
  responses: {
    204: { description: 'The group was deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('An instance is in the group (SVC-INUSE-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { placementGroup } = c.req.valid('param');
    await deletePlacementGroup(c.get('deps'), customerActor(c), {
      groupId: placementGroup,
      correlationId: c.get('requestId'),
    });
    return c.body(null, 204);
  });
}
