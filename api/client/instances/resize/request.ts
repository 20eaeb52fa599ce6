import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { requestResize } from '../../../../services/instances/resize.js';
import { ClientResizeBody, RESIZE_RULES } from '../../../../wire/requests/resize.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { ResizeEnvelope, serializeResize } from '../../../../wire/serializers/instances/resize.js';
import { customerActor } from '../../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/resize',
  tags: ['Instances'],
  summary: 'Change the plan',
  description:
    `Moves the instance onto another public plan of its location that its plan may change to (plans of one ` +
    `\`resize_group\`). ${RESIZE_RULES} Follow it in the instance’s tasks (\`resize\`).`,
  request: { params: uuidParam('cloudInstance'), body: jsonBody(ClientResizeBody) },
  responses: {
    200: jsonContent(ResizeEnvelope, 'The instance is on that plan already; nothing changed.'),
    202: jsonContent(ResizeEnvelope, 'Accepted: the verdict, and the `resize` operation begun.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The plan is another location’s (RESIZE_PLAN_OTHER_LOCATION) or not one the instance’s plan may change ' +
        'to (RESIZE_PLAN_NOT_ALLOWED); the disk would shrink (RESIZE_DISK_SHRINK); past an account quota ' +
        '(QUOTA_EXCEEDED); the hypervisor lacks the room and the change may not move the instance ' +
        '(RESIZE_NEEDS_MOVE), or no hypervisor has it (SVC-CAPACITY-409); the status does not allow it ' +
        `(SVC-CONFLICT-409); ${INSTANCE_HELD} An unknown or withdrawn plan is 400 RESIZE_PLAN_UNKNOWN.`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const who = customerActor(c);
    const body = c.req.valid('json');
    const { judgement, operationId } = await requestResize(c.get('deps'), who, {
      instanceId: c.req.valid('param').cloudInstance,
      target: { plan: body.plan },
      allowMove: body.allow_move,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeResize(judgement, who, operationId), operationId ? 202 : 200);
  });
}
