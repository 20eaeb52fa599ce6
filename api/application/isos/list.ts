import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listIsos } from '../../../db/repositories/storage/instance-isos.js';
import { ISO_STATES } from '../../../domain/media/isos.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import { AdminIsoEnvelope, serializeAdminIso } from '../../../wire/serializers/storage/iso.js';
import { z } from '../../../wire/zod.js';

const Query = PageQuery.extend({
  user: z.string().uuid().optional().openapi({ description: 'Only this user’s.' }),
  instance: z.string().uuid().optional().openapi({ description: 'Only this instance’s library.' }),
  state: z
    .enum(ISO_STATES)
    .optional()
    .openapi({ description: 'Only ISOs in this state (`failed`: what to look at).' }),
});

const route = createRoute({
  method: 'get',
  path: '/isos',
  tags: ['ISOs'],
  summary: 'List ISOs',
  description:
    'Every instance’s ISO library, oldest first, paginated: where each was fetched from, what arrived (size, ' +
    'SHA-256) or why its fetch failed, and whether it is mounted.',
  request: { query: Query },
  responses: {
    200: jsonContent(listEnvelope(AdminIsoEnvelope, 'AdminIsoList'), 'A page of ISOs.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, user, instance, state } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listIsos(
      c.get('deps').db,
      { userId: user, instanceId: instance, state },
      request,
    );
    return c.json(listBody(request, total, rows.map(serializeAdminIso)), 200);
  });
}
