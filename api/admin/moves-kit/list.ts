import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Cursor, ListRequest } from '../../../domain/pagination.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import { keysetListBody, type keysetListEnvelope, listRequestOf } from '../../../wire/keyset-list.js';
import type { commonErrors, JsonResponse } from '../../../wire/schemas.js';
import type { TemporalLinks } from '../../../wire/serializers/moves/move.js';
import type { z } from '../../../wire/zod.js';

/** What a keyset query (wire/keyset-list.ts) gives besides a kind's filters. */
interface KeysetQuery {
  page?: number;
  per_page: number;
  cursor?: Cursor;
}

/** A page of moves as their service lists them: the records, and where the next page starts. */
interface MovePage<Row> {
  records: Row[];
  total: number | undefined;
  totalEstimated: boolean;
  next: Cursor | null;
}

/**
 * `GET /<moves>`: the moves of a kind, newest first, by page or keyset cursor, filtered by the
 * kind's own query (`query` is a keysetQuery of its filters).
 */
export function moveListRoute<Q extends KeysetQuery, Row, E extends z.ZodType>(spec: {
  readonly method: 'get';
  readonly path: `/${string}`;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly query: z.ZodObject & z.ZodType<Q>;
  readonly responses: { 200: JsonResponse<ReturnType<typeof keysetListEnvelope<E>>> } & typeof commonErrors;
  readonly list: (deps: ServiceDeps, query: Q, request: ListRequest) => Promise<MovePage<Row>>;
  readonly serialize: (row: Row, links: TemporalLinks) => z.infer<E>;
}) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { query: spec.query },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const query = c.req.valid('query');
        const deps = c.get('deps');
        const request = listRequestOf(query);
        const { records, ...page } = await spec.list(deps, query, request);
        const data = records.map((r) => spec.serialize(r, deps.config));
        return c.json(keysetListBody(request, page, data), 200);
      });
    },
  };
}
