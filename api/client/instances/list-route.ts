import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../../../db/database.js';
import type { PageRequest } from '../../../domain/pagination.js';
import type { AppEnv } from '../../context.js';
import {
  commonErrors,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../schemas.js';
import type { z } from '../../zod.js';
import { callersInstance } from './callers-instance.js';

/**
 * `GET /{cloudInstance}/<things>`: a page of what one of the caller's instances holds (its
 * backups, snapshots, schedules, log, tasks). The instance is found or 404; the page is read and
 * each row serialized into the list envelope. The list routes differ only in these words, their
 * reader and their serializer.
 */
export function instanceListRoute<Row, Item extends z.ZodType>(spec: {
  readonly things: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  /** The item's schema and the list's component name. */
  readonly item: Item;
  readonly listName: string;
  readonly page: string;
  readonly read: (
    db: Database,
    instanceId: string,
    page: PageRequest,
  ) => Promise<{ rows: Row[]; total: number }>;
  readonly serialize: (row: Row) => z.infer<Item>;
}) {
  const route = createRoute({
    method: 'get',
    path: `/{cloudInstance}/${spec.things}`,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam('cloudInstance'), query: PageQuery },
    responses: {
      200: jsonContent(listEnvelope(spec.item, spec.listName), spec.page),
      ...commonErrors,
      ...notFoundResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const instance = await callersInstance(c, c.req.valid('param').cloudInstance);
        const { page, per_page } = c.req.valid('query');
        const request = { page, perPage: per_page };
        const { rows, total } = await spec.read(c.get('deps').db, instance.id, request);
        return c.json(listBody(request, total, rows.map(spec.serialize)), 200);
      });
    },
  };
}
