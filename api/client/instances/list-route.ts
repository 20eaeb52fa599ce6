import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../../../db/database.js';
import type { KeysetPage } from '../../../db/keyset.js';
import type { ListRequest, PageRequest } from '../../../domain/pagination.js';
import type { AppEnv } from '../../../http/context.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../../wire/keyset-list.js';
import {
  commonErrors,
  jsonContent,
  listBody,
  listEnvelope,
  notFoundResponse,
  PageQuery,
  uuidParam,
} from '../../../wire/schemas.js';
import type { z } from '../../../wire/zod.js';
import { callersInstance } from './callers-instance.js';

/**
 * How a list is read: by page number alone (a bounded table: backups, snapshots, schedules), or by
 * page number or keyset cursor (a table that grows without bound: the log, the tasks).
 */
type Reader<Row> =
  | {
      readonly paging: 'pages';
      readonly read: (
        db: Database,
        instanceId: string,
        page: PageRequest,
      ) => Promise<{ rows: Row[]; total: number }>;
    }
  | {
      readonly paging: 'keyset';
      readonly read: (db: Database, instanceId: string, request: ListRequest) => Promise<KeysetPage<Row>>;
    };

/**
 * `GET /{cloudInstance}/<things>`: a page of what one of the caller's instances holds (its
 * backups, snapshots, schedules, log, tasks). The instance is found or 404; the page is read and
 * each row serialized into the list envelope. The list routes differ only in these words, their
 * reader and their serializer.
 */
export function instanceListRoute<Row, Item extends z.ZodType>(
  spec: Reader<Row> & {
    readonly things: string;
    readonly tag: string;
    readonly summary: string;
    readonly description: string;
    /** The item's schema and the list's component name. */
    readonly item: Item;
    readonly listName: string;
    readonly page: string;
    readonly serialize: (row: Row) => z.infer<Item>;
  },
) {
  const keyset = spec.paging === 'keyset';
  const route = createRoute({
    method: 'get',
    path: `/{cloudInstance}/${spec.things}`,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam('cloudInstance'), query: keyset ? keysetQuery({}) : PageQuery },
    responses: {
      // One of two envelopes: typed as either, checked by the OpenAPI tests against the answers.
      200: jsonContent(
        (keyset
          ? keysetListEnvelope(spec.item, spec.listName)
          : listEnvelope(spec.item, spec.listName)) as z.ZodType,
        spec.page,
      ),
      ...commonErrors,
      ...notFoundResponse,
    },
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
