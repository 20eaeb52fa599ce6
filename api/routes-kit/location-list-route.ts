import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { LocationRow } from '../../db/repositories/catalogue/locations.js';
import { listLocations } from '../../db/repositories/catalogue/locations.js';
import type { AppEnv } from '../../http/context.js';
import { type commonErrors, type JsonResponse, type ListEnvelope, listBody } from '../../wire/schemas.js';
import type { z } from '../../wire/zod.js';
import type { ListWords } from './catalogue-list-route.js';

/**
 * `GET /locations`, every location by code in one page, the same in both APIs but for its words
 * and its list's component name, which the route file states with its method, path and responses.
 */
export function locationListRoute<E extends z.ZodType>(
  spec: ListWords & {
    readonly method: 'get';
    readonly path: '/locations';
    readonly responses: { 200: JsonResponse<ListEnvelope<E>> } & typeof commonErrors;
    /** What each API shows of a location (administrators also see its DNS provider). */
    readonly serialize: (row: LocationRow) => z.infer<E>;
  },
) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const rows = await listLocations(c.get('deps').db);
        const page = { page: 1, perPage: Math.max(1, rows.length) };
        return c.json(listBody(page, rows.length, rows.map(spec.serialize)), 200);
      });
    },
  };
}
