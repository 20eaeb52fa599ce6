import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { changeRescueMode, rescueStatus } from '../../../../services/instances/rescue.js';
import {
  type commonErrors,
  type conflictResponse,
  jsonContent,
  type notFoundResponse,
  optionalJsonBody,
  uuidParam,
  type workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { RescueEnvelope, serializeRescue } from '../../../../wire/serializers/instances/rescue.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

/** A rescue action's 202: the rescue status, the operation begun. */
export const rescueRestarting = jsonContent(
  RescueEnvelope,
  'Accepted: the instance is `restarting` into or out of rescue mode.',
);

/**
 * `POST /{cloudInstance}/rescue/<enter|exit>`: 202 with the rescue status, the operation begun. The
 * route file states its method, path (which ends in its action) and responses.
 */
export function rescueAction<A extends 'enter' | 'exit'>(spec: {
  readonly action: A;
  readonly method: 'post';
  readonly path: `/{cloudInstance}/rescue/${NoInfer<A>}`;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 202: typeof rescueRestarting } & typeof commonErrors &
    typeof notFoundResponse &
    ReturnType<typeof conflictResponse> &
    typeof workflowUnavailableResponse;
}) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: ['Rescue'],
    summary: spec.summary,
    description: spec.description,
    request: {
      params: uuidParam('cloudInstance'),
      body: optionalJsonBody(
        z.strictObject({}).openapi(spec.action === 'enter' ? 'RescueEnterRequest' : 'RescueExitRequest'),
      ),
    },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { cloudInstance } = c.req.valid('param');
        const deps = c.get('deps');
        await changeRescueMode(deps, customerActor(c), {
          instanceId: cloudInstance,
          enter: spec.action === 'enter',
          correlationId: c.get('requestId'),
        });
        return c.json(serializeRescue(await rescueStatus(deps, cloudInstance)), 202);
      });
    },
  };
}
