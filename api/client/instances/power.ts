import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { POWER_ACTIONS } from '../../../domain/instances/statuses.js';
import { requestPowerAction } from '../../../services/instances/power.js';
import type { AppEnv } from '../../context.js';
import { customerActor } from '../../principals.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';
import { z } from '../../zod.js';

const PowerBody = z.strictObject({ action: z.enum(POWER_ACTIONS) }).openapi('PowerRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/power',
  tags: ['Instances'],
  summary: 'Power action: start, stop, restart or kill',
  description:
    'Accepted actions by status: `start` from stopped; `stop` and `restart` from running; `kill` from running, ' +
    'or while a start, stop or restart is in progress (kill takes over: the earlier action is cancelled). The ' +
    'instance moves at once to a transitional status (starting, stopping, restarting) and, when its hypervisor ' +
    'reports, to the power state the hypervisor reports (running or stopped). If the action fails, the instance ' +
    'returns to the status it had. One operation per instance at a time; a request right after the previous one ' +
    'settled is accepted.',
  request: { params: uuidParam('cloudInstance'), body: jsonBody(PowerBody) },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance in its transitional status.'),
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
    const { cloudInstance } = c.req.valid('param');
    const instance = await requestPowerAction(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      action: c.req.valid('json').action,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 202);
  });
}
