import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createInstance } from '../../../services/instances/create.js';
import { externalIdField } from '../../../wire/requests/external-id.js';
import { commonErrors, jsonBody, jsonContent } from '../../../wire/schemas.js';
import {
  OrderedInstanceEnvelope,
  serializeOrderedInstance,
} from '../../../wire/serializers/instances/placed-instance.js';
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
    external_id: externalIdField('instance').optional(),
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
    'its owner sees it, with its `external_id`; `GET /instances/{instance}` shows its placement. An `external_id` ' +
    'another live instance holds is refused (409 `EXTERNAL_ID_TAKEN`) and nothing is created; of two orders ' +
    'at once naming the same one, one is.',
  request: { headers: IdempotencyHeader, body: jsonBody(CreateForUserBody) },
  responses: {
    202: jsonContent(OrderedInstanceEnvelope, 'Accepted; the instance in `provisioning`.'),
    ...commonErrors,
    ...orderRefusals('Another live instance has this `external_id` (EXTERNAL_ID_TAKEN); '),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const outcome = await createInstance(
      c.get('deps'),
      adminActor(c),
      { ...orderRequest(body.user, body), externalId: body.external_id },
      orderContext(c, c.req.valid('header')['idempotency-key'], '/api/application/cloudsvc/instances', body),
      serializeOrderedInstance,
    );
    setOrderHeaders(c, outcome);
    return c.json(outcome.body, 202);
  });
}
