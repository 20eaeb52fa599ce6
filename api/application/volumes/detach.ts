import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { detachVolume } from '../../../services/storage/volume-detach.js';
import { VolumeDetachBody } from '../../../wire/requests/volume.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_BUSY,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { AdminVolumeEnvelope, serializeAdminVolume } from '../../../wire/serializers/storage/volume.js';
import { adminActor } from '../../auth/principals.js';
import { VOLUME_CHANGE_ACCEPTED } from '../../routes-kit/volumes.js';

const route = createRoute({
  method: 'post',
  path: '/volumes/{volume}/detach',
  tags: ['Volumes'],
  summary: 'Detach a volume from its instance',
  description:
    'As the customer would (`POST /api/client/cloud/volumes/{cloudVolume}/detach`): an operation of the ' +
    'instance (`volume_detach`); the volume’s content stays on the hypervisor that keeps it. The body may be ' +
    'left out.',
  request: { params: uuidParam('volume'), body: optionalJsonBody(VolumeDetachBody) },
  responses: {
    200: jsonContent(AdminVolumeEnvelope, 'The volume is on no instance; nothing changed.'),
    202: jsonContent(AdminVolumeEnvelope, VOLUME_CHANGE_ACCEPTED),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(`The volume is changing (SVC-CONFLICT-409); ${INSTANCE_BUSY}`),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { volume, accepted } = await detachVolume(c.get('deps'), adminActor(c), {
      volumeId: c.req.valid('param').volume,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeAdminVolume(volume), accepted ? 202 : 200);
  });
}
