import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { regeneratePassword } from '../../../../services/instances/lifecycle.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../../wire/serializers/instances/instance.js';
import { customerActor } from '../../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/settings/password',
  tags: ['Instance settings'],
  summary: 'Regenerate the root password',
  description:
    'The hypervisor sets a new root password in the guest; once it is set, it can be read once from ' +
    '`GET /{cloudInstance}/settings/password` within a new window. Allowed from `running` and `stopped`; the ' +
    'status does not change, and a stopped guest takes the password at its next start. Follow it in ' +
    '`GET /{cloudInstance}/tasks`.',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'Not allowed in the current status (SVC-CONFLICT-409); another operation is in progress (SVC-OP-409); ' +
        'the instance is migrating (INSTANCE_MIGRATING); ' +
        'the provider suspended it (INSTANCE_SUSPENDED).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const instance = await regeneratePassword(c.get('deps'), customerActor(c), {
      instanceId: c.req.valid('param').cloudInstance,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 202);
  });
}
