import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createInstance } from '../../../services/instances/create.js';
import { commonErrors, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../wire/serializers/instance.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';
import {
  IdempotencyHeader,
  InstanceOrderFields,
  orderContext,
  orderRefusals,
  orderRequest,
  setOrderHeaders,
} from '../../routes-kit/instance-order.js';

const CreateForUserBody = z
  .strictObject({
    user: z.string().uuid().openapi({ description: 'The user the instance is for; not a disabled one.' }),
    ...InstanceOrderFields,
  })
  .openapi('CreateInstanceForUserRequest');

const route = createRoute({
  method: 'post',
  path: '/instances',
  tags: ['Instances'],
  summary: 'Create an instance for a user',
  description:
    'The customer’s create (`POST /api/client/cloud`) on their behalf: the same placement, reservation, ' +
    'addresses and provisioning. `ssh_keys` are the user’s; the image may be a private one. The ' +
    '`Idempotency-Key` and the creation rate limit are the administrator’s. The answer is the instance as ' +
    'its owner sees it; `GET /instances/{instance}` shows its placement.',
  request: { headers: IdempotencyHeader, body: jsonBody(CreateForUserBody) },
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
      adminActor(c),
      orderRequest(body.user, body),
      orderContext(c, c.req.valid('header')['idempotency-key'], '/api/application/cloudsvc/instances', body),
      serializeInstance,
    );
    setOrderHeaders(c, outcome);
    return c.json(outcome.body, 202);
  });
}
