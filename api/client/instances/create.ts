import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createInstance } from '../../../services/instances/create.js';
import { commonErrors, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../wire/serializers/instances/instance.js';
import { z } from '../../../wire/zod.js';
import { customerActor, customerId } from '../../auth/principals.js';
import {
  IdempotencyHeader,
  InstanceOrderFields,
  orderContext,
  orderRefusals,
  orderRequest,
  setOrderHeaders,
} from '../../routes-kit/instance-order.js';

const CreateBody = z.strictObject(InstanceOrderFields).openapi('CreateInstanceRequest');

const route = createRoute({
  method: 'post',
  path: '/',
  tags: ['Instances'],
  summary: 'Create an instance',
  description:
    'Places the instance on a hypervisor of the location that is online, not in maintenance and has the ' +
    'plan’s resources free; reserves them and allocates its addresses from the location’s pools, then ' +
    'provisions it (status `provisioning`, then the power state the hypervisor reports, normally `running`). ' +
    'The root password can be read once from `GET /{cloudInstance}/settings/password`. Rate-limited per ' +
    'caller (INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE, with `RateLimit` and `RateLimit-Policy` headers).',
  request: { headers: IdempotencyHeader, body: jsonBody(CreateBody) },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance in `provisioning`.'),
    ...commonErrors,
    ...orderRefusals(),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const outcome = await createInstance(
      c.get('deps'),
      customerActor(c),
      orderRequest(customerId(c), body),
      orderContext(c, c.req.valid('header')['idempotency-key'], '/api/client/cloud', body),
      serializeInstance,
    );
    setOrderHeaders(c, outcome);
    return c.json(outcome.body, 202);
  });
}
