import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { changeRescueMode, rescueStatus } from '../../../../services/instances/rescue.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { RescueEnvelope, serializeRescue } from '../../../../wire/serializers/rescue.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

/** `POST /{cloudInstance}/rescue/<enter|exit>`: 202 with the rescue status, the operation begun. */
export function rescueAction(spec: {
  readonly action: 'enter' | 'exit';
  readonly summary: string;
  readonly description: string;
}) {
  const route = createRoute({
    method: 'post',
    path: `/{cloudInstance}/rescue/${spec.action}`,
    tags: ['Rescue'],
    summary: spec.summary,
    description: spec.description,
    request: {
      params: uuidParam('cloudInstance'),
      body: optionalJsonBody(
        z.strictObject({}).openapi(spec.action === 'enter' ? 'RescueEnterRequest' : 'RescueExitRequest'),
      ),
    },
    responses: {
      202: jsonContent(RescueEnvelope, 'Accepted: the instance is `restarting` into or out of rescue mode.'),
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(
        `The instance’s status does not allow it (SVC-CONFLICT-409: ${spec.action === 'enter' ? 'it is not running or stopped, or is in rescue mode already' : 'it is not in rescue mode'}); ${INSTANCE_HELD}`,
      ),
      ...workflowUnavailableResponse,
    },
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
