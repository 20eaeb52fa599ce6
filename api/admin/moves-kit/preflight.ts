import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import {
  type commonErrors,
  type JsonResponse,
  jsonBody,
  type notFoundResponse,
} from '../../../wire/schemas.js';
import type { z } from '../../../wire/zod.js';
import { type PathOf, pathParam } from './route-parts.js';

/**
 * `POST /instances/{instance}/<moves>/preflight`: the kind's judgement of a move of the instance,
 * read-only; a blocked move is still a 200, with `ok: false`.
 */
export function movePreflightRoute<P extends string, B, E extends z.ZodType>(spec: {
  readonly method: 'post';
  readonly path: PathOf<P>;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly body: z.ZodType<B>;
  readonly responses: { 200: JsonResponse<E> } & typeof commonErrors & typeof notFoundResponse;
  /** The report, serialized: each kind's serializer takes what its preflight gives. */
  readonly judge: (deps: ServiceDeps, instanceId: string, body: B) => Promise<z.infer<E>>;
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
        const instanceId = param.read(c.req.valid('param'));
        return c.json(await spec.judge(c.get('deps'), instanceId, c.req.valid('json')), 200);
      });
    },
  };
}
