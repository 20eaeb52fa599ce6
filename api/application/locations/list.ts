import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listLocations } from '../../../db/repositories/locations.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../schemas.js';
import { z } from '../../zod.js';

const LocationEnvelope = z
  .object({
    object: z.literal('location'),
    attributes: z.object({
      uuid: z.string().uuid(),
      code: z.string(),
      name: z.string(),
      created_at: z.string(),
    }),
  })
  .openapi('Location');

const route = createRoute({
  method: 'get',
  path: '/locations',
  tags: ['Locations'],
  summary: 'List locations',
  description: 'Every location, by code, in one page.',
  responses: {
    200: jsonContent(listEnvelope(LocationEnvelope, 'LocationList'), 'The locations.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const rows = await listLocations(c.get('deps').db);
    const data = rows.map((r) => ({
      object: 'location' as const,
      attributes: { uuid: r.id, code: r.code, name: r.name, created_at: r.created_at.toISOString() },
    }));
    const page = { page: 1, perPage: Math.max(1, rows.length) };
    return c.json(listBody(page, rows.length, data), 200);
  });
}
