import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
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
import { InstanceEnvelope, serializeInstance } from '../../../wire/serializers/instances/instance.js';
import { customerActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/power',
  tags: ['Instances'],
  summary: 'Power action: start, stop, restart or kill',
  description: `${POWER_RULES} A suspended instance refuses every action (INSTANCE_SUSPENDED).`,
  request: { params: uuidParam('cloudInstance'), body: jsonBody(PowerBody) },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance in its transitional status.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'Not allowed in the current status, or the instance is not placed yet (SVC-CONFLICT-409); another ' +
        'operation is in progress (SVC-OP-409); the instance is migrating (INSTANCE_MIGRATING); the provider ' +
        'suspended it (INSTANCE_SUSPENDED).',
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
