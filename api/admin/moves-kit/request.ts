import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Actor } from '../../../domain/actors.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import {
  type commonErrors,
  type JsonResponse,
  jsonBody,
  type notFoundResponse,
} from '../../../wire/schemas.js';
import type { TemporalLinks } from '../../../wire/serializers/moves/move.js';
import type { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';
import { type ErrorResponse, type PathOf, pathParam } from './route-parts.js';

/** Who asks for a move and of which instance, besides what the kind's body says. */
export interface MoveAsk {
  readonly instanceId: string;
  readonly correlationId: string;
}

/**
 * `POST /instances/{instance}/<moves>`: a move requested through its kind's service (the preflight
 * again, the hold on the instance, the start); 202 with the move as it was recorded. The 409 and
 * the 503 say what refuses this kind.
 */
export function moveRequestRoute<P extends string, B, Row, E extends z.ZodType>(spec: {
  readonly method: 'post';
  readonly path: PathOf<P>;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly body: z.ZodType<B>;
  readonly responses: { 202: JsonResponse<E>; 409: ErrorResponse; 503: ErrorResponse } & typeof commonErrors &
    typeof notFoundResponse;
  readonly request: (deps: ServiceDeps, actor: Actor, ask: MoveAsk, body: B) => Promise<Row>;
  readonly serialize: (row: Row, links: TemporalLinks) => z.infer<E>;
}) {
  const param = pathParam(spec.path);
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
        const ask = { instanceId: param.read(c.req.valid('param')), correlationId: c.get('requestId') };
        const move = await spec.request(deps, adminActor(c), ask, c.req.valid('json'));
        return c.json(spec.serialize(move, deps.config), 202);
      });
    },
  };
}
