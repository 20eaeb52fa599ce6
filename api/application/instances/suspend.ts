import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findPlacedInstance } from '../../../db/repositories/instances/all-instances.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { suspendInstance } from '../../../services/instances/suspension.js';
import {
  commonErrors,
  conflictResponse,
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
  path: '/instances/{instance}/suspend',
  tags: ['Instances'],
  summary: 'Suspend an instance',
  description:
    'From now on the customer begins no operation on the instance: power, rebuild, password, backups, ' +
    'snapshots, restores and delete answer 409 `INSTANCE_SUSPENDED` (settings that change only the ' +
    'panel’s record still apply). A running guest is stopped by an operation of the administrator’s, ' +
    'begun with the suspension (202, `stopping`); a stopped one stays so (200). Administrators keep every ' +
    'action. Refused while another operation runs, and then nothing changes. Suspending a suspended ' +
    'instance changes nothing (200). Takes no body.',
  request: { params: uuidParam('instance') },
  responses: {
    200: jsonContent(PlacedInstanceEnvelope, 'Suspended (or already so); the guest was not running.'),
    202: jsonContent(PlacedInstanceEnvelope, 'Suspended; the running guest is `stopping`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'Another operation is in progress (SVC-OP-409); the instance is migrating (INSTANCE_MIGRATING); it ' +
        'started while being suspended (SVC-CONFLICT-409).',
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { instance: instanceId } = c.req.valid('param');
    const deps = c.get('deps');
    const outcome = await suspendInstance(deps, adminActor(c), {
      instanceId,
      correlationId: c.get('requestId'),
    });
    const instance = await findPlacedInstance(deps.db, instanceId);
    if (!instance) throw notFound();
    return c.json(serializePlacedInstance(instance), outcome === 'stopping' ? 202 : 200);
  });
}
