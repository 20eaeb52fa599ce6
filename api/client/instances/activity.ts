import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listActivityPageOfInstance } from '../../../db/repositories/activity-log.js';
import type { AppEnv } from '../../context.js';
import {
  commonErrors,
  jsonContent,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../schemas.js';
import { ActivityEnvelope, serializeActivity } from '../../serializers/instance-history.js';
import { pageOfInstance } from './callers-instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/activity',
  tags: ['Instances'],
  summary: 'The instance’s activity log',
  description:
    'Every action on the instance and its outcome, newest first: who asked (customer, administrator or ' +
    'system), the request id (X-Request-Id) and the status it left. Paginated.',
  request: { params: uuidParam('cloudInstance'), query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(ActivityEnvelope, 'ActivityList'), 'A page of the log.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance } = c.req.valid('param');
    return c.json(
      await pageOfInstance(
        c,
        cloudInstance,
        c.req.valid('query'),
        listActivityPageOfInstance,
        serializeActivity,
      ),
      200,
    );
  });
}
