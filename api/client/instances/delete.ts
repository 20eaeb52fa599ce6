import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { deleteInstance } from '../../../services/instances/lifecycle.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../wire/serializers/instances/instance.js';
import { customerActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'delete',
  path: '/{cloudInstance}',
  tags: ['Instances'],
  summary: 'Delete an instance',
  description:
    'Allowed from `running`, `stopped` and `error`. The instance moves to `deleting`; once its hypervisor has ' +
    'removed it, its capacity and addresses are released and it disappears from every list (404 after). If ' +
    'the hypervisor fails, the instance returns to its status and nothing is released.',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance in `deleting`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'Not allowed in the current status (SVC-CONFLICT-409); another operation is in progress (SVC-OP-409); ' +
        'the instance is migrating (INSTANCE_MIGRATING); ' +
        'the provider suspended it (INSTANCE_SUSPENDED).',
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const instance = await deleteInstance(c.get('deps'), customerActor(c), {
      instanceId: c.req.valid('param').cloudInstance,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 202);
  });
}
