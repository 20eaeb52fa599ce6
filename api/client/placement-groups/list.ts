import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listPlacementGroups } from '../../../db/repositories/instances/placement-groups.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import {
  PlacementGroupEnvelope,
  serializePlacementGroup,
} from '../../../wire/serializers/instances/placement-group.js';
import { customerId } from '../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/placement-groups',
  tags: ['Placement groups'],
  summary: 'The caller’s placement groups',
  description: 'Every location’s, oldest first, paginated with `page` and `per_page`.',
  request: { query: PageQuery },
  responses: {
    200: jsonContent(
      listEnvelope(PlacementGroupEnvelope, 'PlacementGroupList'),
      'A page of placement groups.',
    ),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listPlacementGroups(c.get('deps').db, customerId(c), request);
    return c.json(listBody(request, total, rows.map(serializePlacementGroup)), 200);
  });
}
