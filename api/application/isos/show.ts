import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findIso } from '../../../db/repositories/storage/instance-isos.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { AdminIsoEnvelope, serializeAdminIso } from '../../../wire/serializers/storage/iso.js';

const route = createRoute({
  method: 'get',
  path: '/isos/{iso}',
  tags: ['ISOs'],
  summary: 'Show an ISO',
  description:
    'One ISO of any instance’s library, as the list shows it: whose it is, where it is kept, what arrived or ' +
    'why its fetch failed, whether it is mounted.',
  request: { params: uuidParam('iso') },
  responses: {
    200: jsonContent(AdminIsoEnvelope, 'The ISO.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const iso = await findIso(c.get('deps').db, c.req.valid('param').iso);
    if (!iso) throw notFound();
    return c.json(serializeAdminIso(iso), 200);
  });
}
