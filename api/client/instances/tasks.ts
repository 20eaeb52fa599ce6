import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listOperationsPageOfInstance } from '../../../db/repositories/instance-operations.js';
import type { AppEnv } from '../../context.js';
import {
  commonErrors,
  jsonContent,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../schemas.js';
import { serializeTask, TaskEnvelope } from '../../serializers/instance-history.js';
import { pageOfInstance } from './callers-instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/tasks',
  tags: ['Instances'],
  summary: 'The instance’s task history',
  description:
    'The long operations on the instance (provision, power actions, rebuild, password, delete, …), newest ' +
    'first, with their state: `running`, `succeeded`, `failed`, `cancelled`, `preempted` (a kill took over) ' +
    'or `abandoned` (its run ended without finishing), and for a failure a customer-safe error. Paginated.',
  request: { params: uuidParam('cloudInstance'), query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(TaskEnvelope, 'TaskList'), 'A page of tasks.'),
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
        listOperationsPageOfInstance,
        serializeTask,
      ),
      200,
    );
  });
}
