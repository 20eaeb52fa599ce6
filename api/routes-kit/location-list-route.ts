import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listLocations } from '../../db/repositories/locations.js';
import type { AppEnv } from '../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope } from '../../wire/schemas.js';
import { LocationEnvelope, serializeLocation } from '../../wire/serializers/location.js';
import type { ListWords } from './catalogue-list-route.js';

/** `GET /locations`, every location by code in one page, the same in both APIs but for its words. */
export function locationListRoute(words: ListWords) {
  const route = createRoute({
    method: 'get',
    path: '/locations',
    tags: [words.tag],
    summary: words.summary,
    description: words.description,
    responses: {
      200: jsonContent(listEnvelope(LocationEnvelope, words.listName), 'The locations.'),
      ...commonErrors,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const rows = await listLocations(c.get('deps').db);
        const page = { page: 1, perPage: Math.max(1, rows.length) };
        return c.json(listBody(page, rows.length, rows.map(serializeLocation)), 200);
      });
    },
  };
}
