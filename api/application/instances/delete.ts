import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { deleteInstance } from '../../../services/instances/lifecycle.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_BUSY,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../wire/serializers/instances/instance.js';
import { adminActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'delete',
  path: '/instances/{instance}',
  tags: ['Instances'],
  summary: 'Delete any tenant’s instance',
  description:
    'The customer’s delete, for any instance, suspended or not: from `running`, `stopped` or `error` it moves ' +
    'to `deleting`; once its hypervisor has removed it, its capacity and addresses are released and it is ' +
    'gone (404). If the hypervisor fails, the instance returns to its status and nothing is released.',
  request: { params: uuidParam('instance') },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance in `deleting`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(`Not allowed in the current status (SVC-CONFLICT-409); ${INSTANCE_BUSY}`),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const instance = await deleteInstance(c.get('deps'), adminActor(c), {
      instanceId: c.req.valid('param').instance,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 202);
  });
}
