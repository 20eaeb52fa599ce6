import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Actor } from '../../../domain/actors.js';
import type { RecoveryDecision } from '../../../domain/moves/states.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import type { recoveryBody } from '../../../wire/requests/move-fields.js';
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

/**
 * `POST /<moves>/{<move>}/recover`: an operator's decision on a move waiting in RECOVERY_REQUIRED,
 * recorded through its kind's service; the run acts on it. 202 with the move.
 */
export function moveRecoverRoute<P extends string, Row, E extends z.ZodType>(spec: {
  readonly method: 'post';
  readonly path: PathOf<P>;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  /** A recoveryBody, its decisions described for the kind. */
  readonly body: ReturnType<typeof recoveryBody>;
  readonly responses: { 202: JsonResponse<E>; 409: ErrorResponse; 503: ErrorResponse } & typeof commonErrors &
    typeof notFoundResponse;
  readonly decide: (
    deps: ServiceDeps,
    actor: Actor,
    request: { id: string; decision: RecoveryDecision; reason: string },
  ) => Promise<Row>;
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
        const { decision, reason } = c.req.valid('json');
        const id = param.read(c.req.valid('param'));
        const move = await spec.decide(deps, adminActor(c), { id, decision, reason });
        return c.json(spec.serialize(move, deps.config), 202);
      });
    },
  };
}
