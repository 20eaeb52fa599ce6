import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deletePlan } from '../../../services/plans/catalogue.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, conflictResponse, notFoundResponse, uuidParam } from '../../schemas.js';

const route = createRoute({
  method: 'delete',
  path: '/plans/{plan}',
  tags: ['Plans'],
  summary: 'Delete a plan',
  description:
    'Refused while an instance that is not deleted uses the plan (`SVC-INUSE-409`, the detail counts them); ' +
    'nothing changes then. Deleted instances keep no reference to it.',
  request: { params: uuidParam('plan') },
  responses: {
    204: { description: 'Deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('Instances use the plan (SVC-INUSE-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    await deletePlan(c.get('deps'), c.req.valid('param').plan);
    return c.body(null, 204);
  });
}
