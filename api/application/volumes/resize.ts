import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { resizeVolume } from '../../../services/storage/volume-resize.js';
import { resizeConflicts, VolumeResizeBody } from '../../../wire/requests/volume.js';
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
import { AdminVolumeEnvelope, serializeAdminVolume } from '../../../wire/serializers/storage/volume.js';
import { adminActor } from '../../auth/principals.js';
import { VOLUME_CHANGE_ACCEPTED } from '../../routes-kit/volumes.js';

const route = createRoute({
  method: 'post',
  path: '/volumes/{volume}/resize',
  tags: ['Volumes'],
  summary: 'Grow a volume',
  description:
    'As the customer would (`POST /api/client/cloud/volumes/{cloudVolume}/resize`): sizes only grow, up to ' +
    '`VOLUME_MAX_SIZE_MB`, with the room held on the hypervisor that keeps it; on an instance by an operation ' +
    'of the instance (`volume_resize`), on none at once.',
  request: { params: uuidParam('volume'), body: jsonBody(VolumeResizeBody) },
  responses: {
    200: jsonContent(
      AdminVolumeEnvelope,
      'The volume has the size now (it was on no instance), or had it already.',
    ),
    202: jsonContent(AdminVolumeEnvelope, VOLUME_CHANGE_ACCEPTED),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(resizeConflicts(INSTANCE_BUSY)),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { volume, accepted } = await resizeVolume(c.get('deps'), adminActor(c), {
      volumeId: c.req.valid('param').volume,
      sizeMb: c.req.valid('json').size_mb,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeAdminVolume(volume), accepted ? 202 : 200);
  });
}
