import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../../db/database.js';
import { notFound } from '../../domain/errors.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { AppEnv } from '../../http/context.js';
import {
  type commonErrors,
  type JsonResponse,
  type ListEnvelope,
  listBody,
  type notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../wire/schemas.js';
import type { z } from '../../wire/zod.js';
import { pathParam } from '../routes-kit/path-params.js';

/**
 * `GET /<resources>/{<param>}/<children>`: a page of what belongs to one resource (an image's
 * versions, a provider's runs), 404 when the resource is unknown. The route file states its
 * method, path, words and responses; the routes differ only in these, the resource's find, the
 * children's list and their serializer.
 */
export function childListRoute<P extends string, Row, E extends z.ZodType>(spec: {
  readonly method: 'get';
  readonly path: `/${string}/{${P}}/${string}`;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 200: JsonResponse<ListEnvelope<E>> } & typeof commonErrors & typeof notFoundResponse;
  /** The resource the path names: undefined answers 404 before anything is listed. */
  readonly find: (db: Database, id: string) => Promise<unknown>;
  readonly list: (db: Database, id: string, page: PageRequest) => Promise<{ rows: Row[]; total: number }>;
  readonly serialize: (row: Row) => z.infer<E>;
}) {
  const param = pathParam<P>(spec.path);
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam(param), query: PageQuery },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { db } = c.get('deps');
        const id = (c.req.valid('param') as Record<string, string>)[param]!;
        if (!(await spec.find(db, id))) throw notFound();
        const { page, per_page } = c.req.valid('query');
        const request = { page, perPage: per_page };
        const { rows, total } = await spec.list(db, id, request);
        return c.json(listBody(request, total, rows.map(spec.serialize)), 200);
      });
    },
  };
}
