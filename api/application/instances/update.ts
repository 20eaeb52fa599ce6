import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { changeInstanceExternalId } from '../../../services/instances/external-id.js';
import { externalIdField } from '../../../wire/requests/external-id.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import {
  PlacedInstanceEnvelope,
  serializePlacedInstance,
} from '../../../wire/serializers/instances/placed-instance.js';
import { z } from '../../../wire/zod.js';

const InstanceUpdateBody = z
  .strictObject({ external_id: externalIdField('instance') })
  .openapi('InstanceUpdateRequest');

const route = createRoute({
  method: 'patch',
  path: '/instances/{instance}',
  tags: ['Instances'],
  summary: 'Set or clear an instance’s external id',
  description:
    'The billing system’s own id for the instance (null clears it): the panel’s record only, so it is taken ' +
    'whatever operation runs, and on a suspended instance. One live instance’s at most: another’s is refused ' +
    '(409 `EXTERNAL_ID_TAKEN`) and nothing changes.',
  request: { params: uuidParam('instance'), body: jsonBody(InstanceUpdateBody) },
  responses: {
    200: jsonContent(PlacedInstanceEnvelope, 'The instance.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('Another live instance has this `external_id` (EXTERNAL_ID_TAKEN).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { instance } = c.req.valid('param');
    const row = await changeInstanceExternalId(c.get('deps'), instance, c.req.valid('json').external_id);
    return c.json(serializePlacedInstance(row), 200);
  });
}
