import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listVolumes } from '../../../db/repositories/storage/volumes.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../../wire/schemas.js';
import { AdminVolumeEnvelope, serializeAdminVolume } from '../../../wire/serializers/storage/volume.js';
import { z } from '../../../wire/zod.js';
import { listByOwnerAndLocation, OwnerLocationQuery } from '../owner-filters.js';

const Query = OwnerLocationQuery.extend({
  instance: z.string().uuid().optional().openapi({ description: 'Only the volumes on this instance.' }),
});

const route = createRoute({
  method: 'get',
  path: '/volumes',
  tags: ['Volumes'],
  summary: 'List volumes',
  description: 'Every customer’s volumes, oldest first, with where each is kept; paginated.',
  request: { query: Query },
  responses: {
    200: jsonContent(listEnvelope(AdminVolumeEnvelope, 'AdminVolumeList'), 'A page of volumes.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, user, location, instance } = c.req.valid('query');
    const db = c.get('deps').db;
    const request = { page, perPage: per_page };
    const { rows, total } = await listByOwnerAndLocation(db, { user, location }, (filters) =>
      listVolumes(db, { ...filters, instanceId: instance }, request),
    );
    return c.json(listBody(request, total, rows.map(serializeAdminVolume)), 200);
  });
}
