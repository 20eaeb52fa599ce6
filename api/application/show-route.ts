import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../../db/database.js';
import { notFound } from '../../domain/errors.js';
import type { AppEnv } from '../../http/context.js';
import {
  type commonErrors,
  type JsonResponse,
  type notFoundResponse,
  uuidParam,
} from '../../wire/schemas.js';
import type { z } from '../../wire/zod.js';
import { pathParam } from '../routes-kit/path-params.js';

/**
 * `GET /<resources>/{<param>}`: one resource as an administrator sees it. The route file states
 * its method, path and responses; the 200 is the found row, serialized, and an unknown id 404.
 */
export function showRoute<P extends string, Row, E extends z.ZodType>(spec: {
  readonly method: 'get';
  readonly path: `/${string}/{${P}}`;
  readonly tag: string;
  readonly summary: string;
  readonly responses: { 200: JsonResponse<E> } & typeof commonErrors & typeof notFoundResponse;
  readonly find: (db: Database, id: string) => Promise<Row | undefined>;
  readonly serialize: (row: Row) => z.infer<E>;
}) {
  const param = pathParam<P>(spec.path);
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    request: { params: uuidParam(param) },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const id = (c.req.valid('param') as Record<string, string>)[param]!;
        const row = await spec.find(c.get('deps').db, id);
        if (!row) throw notFound();
        return c.json(spec.serialize(row), 200);
      });
    },
  };
}
