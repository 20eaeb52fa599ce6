import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listActivityPageOfInstance } from '../../../db/repositories/activity-log.js';
import { listOperationsPageOfInstance } from '../../../db/repositories/instance-operations.js';
import { findInstanceOfUser } from '../../../db/repositories/instances.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../context.js';
import { customerId } from '../../principals.js';
import {
  commonErrors,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../schemas.js';
import {
  ActivityEnvelope,
  serializeActivity,
  serializeTask,
  TaskEnvelope,
} from '../../serializers/instance-history.js';

const activityRoute = createRoute({
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

const tasksRoute = createRoute({
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
  app.openapi(activityRoute, async (c) => {
    const { db } = c.get('deps');
    const instance = await findInstanceOfUser(db, customerId(c), c.req.valid('param').cloudInstance);
    if (!instance) throw notFound();
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listActivityPageOfInstance(db, instance.id, request);
    return c.json(listBody(request, total, rows.map(serializeActivity)), 200);
  });

  app.openapi(tasksRoute, async (c) => {
    const { db } = c.get('deps');
    const instance = await findInstanceOfUser(db, customerId(c), c.req.valid('param').cloudInstance);
    if (!instance) throw notFound();
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listOperationsPageOfInstance(db, instance.id, request);
    return c.json(listBody(request, total, rows.map(serializeTask)), 200);
  });
}
