import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import type { commonErrors, JsonResponse, notFoundResponse } from '../../../wire/schemas.js';
import type { TemporalLinks } from '../../../wire/serializers/moves/move.js';
import type { z } from '../../../wire/zod.js';
import { type PathOf, pathParam } from './route-parts.js';

/** `GET /<moves>/{<move>}`: one move of its kind, read by its service (an unknown id is its 404). */
export function moveShowRoute<P extends string, Row, E extends z.ZodType>(spec: {
  readonly method: 'get';
  readonly path: PathOf<P>;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 200: JsonResponse<E> } & typeof commonErrors & typeof notFoundResponse;
  readonly read: (deps: ServiceDeps, id: string) => Promise<Row>;
  readonly serialize: (row: Row, links: TemporalLinks) => z.infer<E>;
}) {
  const param = pathParam(spec.path);
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: param.schema },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const deps = c.get('deps');
        const move = await spec.read(deps, param.read(c.req.valid('param')));
        return c.json(spec.serialize(move, deps.config), 200);
      });
    },
  };
}
