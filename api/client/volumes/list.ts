import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listVolumes } from '../../../db/repositories/storage/volumes.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import { serializeVolume, VolumeEnvelope } from '../../../wire/serializers/storage/volume.js';
import { customerId } from '../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/volumes',
  tags: ['Volumes'],
  summary: 'The caller’s volumes',
  description: 'Every location’s, oldest first, paginated with `page` and `per_page`.',
  request: { query: PageQuery },
  responses: {
    200: jsonContent(listEnvelope(VolumeEnvelope, 'VolumeList'), 'A page of volumes.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listVolumes(c.get('deps').db, { userId: customerId(c) }, request);
    return c.json(listBody(request, total, rows.map(serializeVolume)), 200);
  });
}
