import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Actor } from '../../../domain/actors.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import type { ReasonBody } from '../../../wire/requests/move-fields.js';
import {
  type commonErrors,
  type JsonResponse,
  jsonBody,
  type notFoundResponse,
} from '../../../wire/schemas.js';
import type { TemporalLinks } from '../../../wire/serializers/moves/move.js';
import type { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';
import { type ErrorResponse, pathParam } from './route-parts.js';

/** Cancel and rollback (SPEC.md §4): the same request to a move's run; they differ in the outcome recorded. */
export type UndoKind = 'cancel' | 'rollback';

/** A kind's service that undoes one of its moves, and answers the move as the request found it. */
export type UndoService<Row> = (
  deps: ServiceDeps,
  actor: Actor,
  request: { id: string; kind: UndoKind; reason: string },
) => Promise<Row>;

/**
 * `POST /<moves>/{<move>}/cancel` or `/rollback`, the last segment of the path: the move undone
 * before its point of no return, through its kind's service; 202 with the move as the request
 * found it. The 409 and 503 say what refuses this kind.
 */
export function moveUndoRoute<P extends string, K extends UndoKind, Row, E extends z.ZodType>(spec: {
  readonly method: 'post';
  readonly path: `/${string}{${P}}/${K}`;
  readonly kind: K;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  /** ReasonBody, named for the kind in the OpenAPI document. */
  readonly body: typeof ReasonBody;
  readonly responses: { 202: JsonResponse<E>; 409: ErrorResponse; 503: ErrorResponse } & typeof commonErrors &
    typeof notFoundResponse;
  readonly undo: UndoService<Row>;
  readonly serialize: (row: Row, links: TemporalLinks) => z.infer<E>;
}) {
  const param = pathParam<P>(spec.path);
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: param.schema, body: jsonBody(spec.body) },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const deps = c.get('deps');
        const move = await spec.undo(deps, adminActor(c), {
          id: param.read(c.req.valid('param')),
          kind: spec.kind,
          reason: c.req.valid('json').reason,
        });
        return c.json(spec.serialize(move, deps.config), 202);
      });
    },
  };
}
