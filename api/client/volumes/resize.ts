import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { resizeVolume } from '../../../services/storage/volume-resize.js';
import { resizeConflicts, VolumeResizeBody } from '../../../wire/requests/volume.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { serializeVolume, VolumeEnvelope } from '../../../wire/serializers/storage/volume.js';
import { customerActor } from '../../auth/principals.js';
import { VOLUME_CHANGE_ACCEPTED } from '../../routes-kit/volumes.js';

const route = createRoute({
  method: 'post',
  path: '/volumes/{cloudVolume}/resize',
  tags: ['Volumes'],
  summary: 'Grow a volume',
  description:
    'Sizes only grow, up to `VOLUME_MAX_SIZE_MB`, and the hypervisor that keeps the volume must have the room ' +
    '(it is held for it at once). On an instance: an operation of the instance (`volume_resize`) grows the disk ' +
    'under the guest, which sees the new size at once: its file system is the guest’s to grow. The volume is ' +
    '`resizing`, then `attached` with its new size. On no instance: the size is recorded at once, answered 200, and the ' +
    'disk grows at its next attach.',
  request: { params: uuidParam('cloudVolume'), body: jsonBody(VolumeResizeBody) },
  responses: {
    200: jsonContent(
      VolumeEnvelope,
      'The volume has the size now (it was on no instance), or had it already.',
    ),
    202: jsonContent(VolumeEnvelope, VOLUME_CHANGE_ACCEPTED),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(resizeConflicts(INSTANCE_HELD)),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { volume, accepted } = await resizeVolume(c.get('deps'), customerActor(c), {
      volumeId: c.req.valid('param').cloudVolume,
      sizeMb: c.req.valid('json').size_mb,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeVolume(volume), accepted ? 202 : 200);
  });
}
