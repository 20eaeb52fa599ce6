import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../../http/context.js';
import { judgeResize } from '../../../../services/instances/resize-judgement.js';
import { ClientResizeQuery, RESIZE_RULES } from '../../../../wire/requests/resize.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../../wire/schemas.js';
import { ResizeEnvelope, serializeResize } from '../../../../wire/serializers/instances/resize.js';
import { customerActor } from '../../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/resize',
  tags: ['Instances'],
  summary: 'What a plan change would do (dry run)',
  description:
    `Reads only: the verdict \`POST …/resize\` with this \`plan\` would act on, or the error it would be ` +
    `refused with. ${RESIZE_RULES}`,
  request: { params: uuidParam('cloudInstance'), query: ClientResizeQuery },
  responses: {
    200: jsonContent(ResizeEnvelope, 'The verdict; nothing was held or changed.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'As the change itself would be refused: RESIZE_PLAN_OTHER_LOCATION, RESIZE_PLAN_NOT_ALLOWED, ' +
        `RESIZE_DISK_SHRINK, QUOTA_EXCEEDED, SVC-CONFLICT-409; ${INSTANCE_HELD}`,
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const who = customerActor(c);
    const query = c.req.valid('query');
    const judgement = await judgeResize(c.get('deps'), who, {
      instanceId: c.req.valid('param').cloudInstance,
      target: query.plan !== undefined ? { plan: query.plan } : {},
      allowMove: query.allow_move,
    });
    return c.json(serializeResize(judgement, who, null), 200);
  });
}
