import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findPlacedInstance } from '../../../db/repositories/instances/all-instances.js';
import { notFound } from '../../../domain/errors.js';
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
import {
  PlacedInstanceEnvelope,
  serializePlacedInstance,
} from '../../../wire/serializers/instances/placed-instance.js';
import { adminActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'delete',
  path: '/instances/{instance}',
  tags: ['Instances'],
  summary: 'Delete any tenant’s instance',
  description:
    'The customer’s delete, for any instance, suspended or not: from `running`, `stopped` or `error` it moves ' +
    'to `deleting`; once its hypervisor has removed it, its capacity and addresses are released and it is ' +
    'gone (404). If the hypervisor fails, the instance returns to its status and nothing is released. ' +
    'Answers the instance as administrators see it (its `external_id` too).',
  request: { params: uuidParam('instance') },
  responses: {
    202: jsonContent(PlacedInstanceEnvelope, 'Accepted; the instance in `deleting`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(`Not allowed in the current status (SVC-CONFLICT-409); ${INSTANCE_BUSY}`),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const instanceId = c.req.valid('param').instance;
    const before = await findPlacedInstance(deps.db, instanceId);
    const deleting = await deleteInstance(deps, adminActor(c), {
      instanceId,
      correlationId: c.get('requestId'),
    });
    // A hypervisor quick enough may have removed it already: then it is shown as it was, `deleting`.
    const placed = (await findPlacedInstance(deps.db, instanceId)) ?? before;
    if (!placed) throw notFound();
    return c.json(serializePlacedInstance({ ...placed, status: deleting.status }), 202);
  });
}
