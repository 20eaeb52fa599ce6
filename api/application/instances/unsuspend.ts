import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findPlacedInstance } from '../../../db/repositories/instances/all-instances.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { unsuspendInstance } from '../../../services/instances/suspension.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  PlacedInstanceEnvelope,
  serializePlacedInstance,
} from '../../../wire/serializers/instances/placed-instance.js';
import { adminActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/instances/{instance}/unsuspend',
  tags: ['Instances'],
  summary: 'Lift an instance’s suspension',
  description:
    'The customer may act on the instance again; it stays in the power state it is in (a guest stopped by ' +
    'the suspension is started by its customer or an administrator). Lifting none changes nothing. Takes no ' +
    'body.',
  request: { params: uuidParam('instance') },
  responses: {
    200: jsonContent(PlacedInstanceEnvelope, 'The instance, not suspended.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { instance: instanceId } = c.req.valid('param');
    const deps = c.get('deps');
    await unsuspendInstance(deps, adminActor(c), { instanceId, correlationId: c.get('requestId') });
    const instance = await findPlacedInstance(deps.db, instanceId);
    if (!instance) throw notFound();
    return c.json(serializePlacedInstance(instance), 200);
  });
}
