import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { attachVolume } from '../../../services/storage/volume-attachments.js';
import { attachConflicts, VolumeAttachBody } from '../../../wire/requests/volume.js';
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
  path: '/volumes/{volume}/attach',
  tags: ['Volumes'],
  summary: 'Attach a volume to an instance of its owner',
  description:
    'As the customer would (`POST /api/client/cloud/volumes/{cloudVolume}/attach`), to an instance of the ' +
    'volume’s owner in its location: an operation of the instance (`volume_attach`), logged in the owner’s ' +
    'activity with the administrator as the actor. A suspended instance takes it too.',
  request: { params: uuidParam('volume'), body: jsonBody(VolumeAttachBody) },
  responses: {
    200: jsonContent(AdminVolumeEnvelope, 'The volume already is on the instance; nothing changed.'),
    202: jsonContent(AdminVolumeEnvelope, VOLUME_CHANGE_ACCEPTED),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(attachConflicts(INSTANCE_BUSY)),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { volume, accepted } = await attachVolume(c.get('deps'), adminActor(c), {
      volumeId: c.req.valid('param').volume,
      instanceId: c.req.valid('json').instance,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeAdminVolume(volume), accepted ? 202 : 200);
  });
}
