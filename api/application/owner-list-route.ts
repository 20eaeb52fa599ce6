import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../../db/database.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { AppEnv } from '../../http/context.js';
import { type commonErrors, type JsonResponse, type ListEnvelope, listBody } from '../../wire/schemas.js';
import type { z } from '../../wire/zod.js';
import { listByOwnerAndLocation, OwnerLocationQuery } from './owner-filters.js';

/** Whose and where, as a repository's list takes them. */
interface OwnerFilters {
  userId?: string;
  locationId?: string;
}

/**
 * `GET /<resources>`: a page of every customer's resources of a kind, filtered by `user` and
 * `location` (a code). The route file states its method, path and responses; the routes differ
 * only in these, their words, their repository's list and their serializer.
 */
export function ownerListRoute<Row, E extends z.ZodType>(spec: {
  readonly method: 'get';
  readonly path: `/${string}`;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 200: JsonResponse<ListEnvelope<E>> } & typeof commonErrors;
  readonly list: (
    db: Database,
    filters: OwnerFilters,
    page: PageRequest,
  ) => Promise<{ rows: Row[]; total: number }>;
  readonly serialize: (row: Row) => z.infer<E>;
}) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { query: OwnerLocationQuery },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { page, per_page, user, location } = c.req.valid('query');
        const db = c.get('deps').db;
        const request = { page, perPage: per_page };
        const { rows, total } = await listByOwnerAndLocation(db, { user, location }, (filters) =>
          spec.list(db, filters, request),
        );
        return c.json(listBody(request, total, rows.map(spec.serialize)), 200);
      });
    },
  };
}
