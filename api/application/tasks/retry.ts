import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findPlacedInstance } from '../../../db/repositories/instances/all-instances.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { retryTask } from '../../../services/tasks/retry.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_BUSY,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import {
  PlacedInstanceEnvelope,
  serializePlacedInstance,
} from '../../../wire/serializers/instances/placed-instance.js';
import { adminActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/tasks/{task}/retry',
  tags: ['Tasks'],
  summary: 'Retry the operation of a failed task',
  description:
    'For a task that failed, was withdrawn or cancelled, and served a power action or a delete whose ' +
    'operation has ended: the same operation is asked again, as the administrator, and begins as any does ' +
    '(the instance’s status and running operation decide). A rebuild, restore or migration is asked for ' +
    'again on its own route, with its choices. Takes no body.',
  request: { params: uuidParam('task') },
  responses: {
    202: jsonContent(PlacedInstanceEnvelope, 'Accepted; the instance with its new operation.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The task did not fail, its operation is not retried from here or is still running, or the instance’s ' +
        `status does not allow it (SVC-CONFLICT-409); ${INSTANCE_BUSY}`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const retried = await retryTask(deps, adminActor(c), {
      taskId: c.req.valid('param').task,
      correlationId: c.get('requestId'),
    });
    const instance = await findPlacedInstance(deps.db, retried.id);
    if (!instance) throw notFound();
    return c.json(serializePlacedInstance(instance), 202);
  });
}
