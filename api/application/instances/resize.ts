import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { requestResize } from '../../../services/instances/resize.js';
import { judgeResize, type ResizeTarget } from '../../../services/instances/resize-judgement.js';
import { AdminResizeBody, RESIZE_RULES } from '../../../wire/requests/resize.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_BUSY,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { ResizeEnvelope, serializeResize } from '../../../wire/serializers/instances/resize.js';
import { adminActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/instances/{instance}/resize',
  tags: ['Instances'],
  summary: 'Change any tenant’s instance’s size',
  description:
    'To a `plan` of the instance’s location (public or not, whatever its `resize_group`), or to a size of ' +
    'the administrator’s own (`cpu_cores`, `memory_mb`, `disk_mb`; those left out stay; the instance keeps ' +
    `its plan). \`dry_run: true\` answers the verdict only (200). ${RESIZE_RULES} A suspended instance takes ` +
    'an administrator’s change.',
  request: { params: uuidParam('instance'), body: jsonBody(AdminResizeBody) },
  responses: {
    200: jsonContent(
      ResizeEnvelope,
      'A dry run’s verdict, or the instance has that size already: nothing changed.',
    ),
    202: jsonContent(ResizeEnvelope, 'Accepted: the verdict, and the `resize` operation begun.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The plan is another location’s (RESIZE_PLAN_OTHER_LOCATION); the disk would shrink ' +
        '(RESIZE_DISK_SHRINK); past the owner’s quota (QUOTA_EXCEEDED); the hypervisor lacks the room and ' +
        '`allow_move` is not given (RESIZE_NEEDS_MOVE), or no hypervisor has it (SVC-CAPACITY-409); the status ' +
        `does not allow it (SVC-CONFLICT-409); ${INSTANCE_BUSY} An unknown plan is 400 RESIZE_PLAN_UNKNOWN.`,
    ),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const who = adminActor(c);
    const deps = c.get('deps');
    const { plan, cpu_cores, memory_mb, disk_mb, allow_move, dry_run } = c.req.valid('json');
    const target: ResizeTarget = plan !== undefined ? { plan } : { cpu_cores, memory_mb, disk_mb };
    const question = { instanceId: c.req.valid('param').instance, target, allowMove: allow_move };
    if (dry_run) return c.json(serializeResize(await judgeResize(deps, who, question), who, null), 200);
    const { judgement, operationId } = await requestResize(deps, who, {
      ...question,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeResize(judgement, who, operationId), operationId ? 202 : 200);
  });
}
