import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findPlacedInstance } from '../../../db/repositories/instances/all-instances.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { requestPowerAction } from '../../../services/instances/power.js';
import { POWER_RULES, PowerBody } from '../../../wire/requests/power.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
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
  path: '/instances/{instance}/power',
  tags: ['Instances'],
  summary: 'Power action on any tenant’s instance',
  description: `${POWER_RULES} A suspended instance takes an administrator’s actions (its customer’s are refused).`,
  request: { params: uuidParam('instance'), body: jsonBody(PowerBody) },
  responses: {
    202: jsonContent(PlacedInstanceEnvelope, 'Accepted; the instance in its transitional status.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'Not allowed in the current status, or the instance is not placed yet (SVC-CONFLICT-409); another ' +
        'operation is in progress (SVC-OP-409); the instance is migrating (INSTANCE_MIGRATING).',
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { instance: instanceId } = c.req.valid('param');
    const deps = c.get('deps');
    await requestPowerAction(deps, adminActor(c), {
      instanceId,
      action: c.req.valid('json').action,
      correlationId: c.get('requestId'),
    });
    const instance = await findPlacedInstance(deps.db, instanceId);
    if (!instance) throw notFound();
    return c.json(serializePlacedInstance(instance), 202);
  });
}
