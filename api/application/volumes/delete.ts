import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { AdminVolumeEnvelope, serializeAdminVolume } from '../../../wire/serializers/volume.js';
import { adminActor } from '../../auth/principals.js';
import {
  answerVolumeDelete,
  VOLUME_DELETE_CONFLICTS,
  VOLUME_DELETING,
  volumeGone,
} from '../../routes-kit/volumes.js';

const route = createRoute({
  method: 'delete',
  path: '/volumes/{volume}',
  tags: ['Volumes'],
  summary: 'Delete a volume',
  description:
    'As its owner would (`DELETE /api/client/cloud/volumes/{cloudVolume}`), logged in their activity with the ' +
    'administrator as the actor: 204 for one never attached, 202 `deleting` while its hypervisor removes it.',
  request: { params: uuidParam('volume') },
  responses: {
    202: jsonContent(AdminVolumeEnvelope, VOLUME_DELETING),
    204: volumeGone,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(VOLUME_DELETE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, (c) =>
    answerVolumeDelete(c, adminActor(c), c.req.valid('param').volume, serializeAdminVolume),
  );
}
