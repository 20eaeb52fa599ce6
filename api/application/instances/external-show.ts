import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findPlacedInstanceByExternalId } from '../../../db/repositories/instances/all-instances.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { ExternalIdParam } from '../../../wire/requests/external-id.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import {
  PlacedInstanceEnvelope,
  serializePlacedInstance,
} from '../../../wire/serializers/instances/placed-instance.js';

const route = createRoute({
  method: 'get',
  path: '/instances/external/{external_id}',
  tags: ['Instances'],
  summary: 'Find an instance by its billing system’s id',
  description:
    'The live instance whose `external_id` is exactly this (percent-encoded in the path), with placement and ' +
    'running operation; 404 when none is (a deleted instance is none), or when the segment could be no ' +
    'external id.',
  request: { params: ExternalIdParam },
  responses: {
    200: jsonContent(PlacedInstanceEnvelope, 'The instance.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const row = await findPlacedInstanceByExternalId(c.get('deps').db, c.req.valid('param').external_id);
    if (!row) throw notFound();
    return c.json(serializePlacedInstance(row), 200);
  });
}
