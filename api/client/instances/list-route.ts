import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../../../db/database.js';
import type { KeysetPage } from '../../../db/keyset.js';
import type { ListRequest, PageRequest } from '../../../domain/pagination.js';
import type { AppEnv } from '../../../http/context.js';
import {
  type KeysetListEnvelope,
  keysetListBody,
  keysetQuery,
  listRequestOf,
} from '../../../wire/keyset-list.js';
import {
  type commonErrors,
  type JsonResponse,
  type ListEnvelope,
  listBody,
  type notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../../wire/schemas.js';
import type { z } from '../../../wire/zod.js';
import { callersInstance } from './callers-instance.js';

type Refusals = typeof commonErrors & typeof notFoundResponse;

/**
 * How a list is read and answered: by page number alone (a bounded table: backups, snapshots,
 * schedules) in the list envelope, or by page number or keyset cursor (a table that grows without
 * bound: the log, the tasks) in the keyset list envelope.
 */
type Reader<Row, Item extends z.ZodType> =
  | {
      readonly paging: 'pages';
      readonly responses: { 200: JsonResponse<ListEnvelope<Item>> } & Refusals;
      readonly read: (
        db: Database,
        instanceId: string,
        page: PageRequest,
      ) => Promise<{ rows: Row[]; total: number }>;
    }
  | {
      readonly paging: 'keyset';
      readonly responses: { 200: JsonResponse<KeysetListEnvelope<Item>> } & Refusals;
      readonly read: (db: Database, instanceId: string, request: ListRequest) => Promise<KeysetPage<Row>>;
    };

/**
 * `GET /{cloudInstance}/<things>`: a page of what one of the caller's instances holds (its
 * backups, snapshots, schedules, log, tasks). The instance is found or 404; the page is read and
 * each row serialized into the list envelope. The route file states its method, path and
 * responses; the list routes differ only in these, their words, their reader and their serializer.
 */
export function instanceListRoute<Row, Item extends z.ZodType>(
  spec: Reader<Row, Item> & {
    readonly method: 'get';
    readonly path: `/{cloudInstance}/${string}`;
    readonly tag: string;
    readonly summary: string;
    readonly description: string;
    readonly serialize: (row: Row) => z.infer<Item>;
  },
) {
  // One of two envelopes: the route answers either, checked by the OpenAPI tests against the answers.
  const responses: { 200: JsonResponse<z.ZodType> } & Refusals = spec.responses;
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: {
      params: uuidParam('cloudInstance'),
      query: spec.paging === 'keyset' ? keysetQuery({}) : PageQuery,
    },
    responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const instance = await callersInstance(c, c.req.valid('param').cloudInstance);
        const db = c.get('deps').db;
        const query = c.req.valid('query') as z.infer<ReturnType<typeof keysetQuery>> & { page?: number };
        if (spec.paging === 'keyset') {
          const request = listRequestOf(query);
          const page = await spec.read(db, instance.id, request);
          return c.json(keysetListBody(request, page, page.rows.map(spec.serialize)), 200);
        }
        const request = { page: query.page ?? 1, perPage: query.per_page };
        const { rows, total } = await spec.read(db, instance.id, request);
        return c.json(listBody(request, total, rows.map(spec.serialize)), 200);
      });
    },
  };
}
