import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { attachVolume } from '../../../services/storage/volume-attachments.js';
import { attachConflicts, VolumeAttachBody } from '../../../wire/requests/volume.js';
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
  path: '/volumes/{cloudVolume}/attach',
  tags: ['Volumes'],
  summary: 'Attach a volume to an instance',
  description:
    'The volume goes on one of your instances in its location: an operation of the instance (`volume_attach`). ' +
    'A running guest sees a new disk at once, whose serial is the volume’s uuid cut to 20 characters; a stopped ' +
    'one at its next boot. On its first attach the volume’s disk is made on the instance’s hypervisor, which ' +
    'keeps it: later it attaches only to instances there. The volume is `attaching`, then `attached`; ' +
    '`available` again if the hypervisor failed, and the operation says why. Already on the instance: 200.',
  request: { params: uuidParam('cloudVolume'), body: jsonBody(VolumeAttachBody) },
  responses: {
    200: jsonContent(VolumeEnvelope, 'The volume already is on the instance; nothing changed.'),
    202: jsonContent(VolumeEnvelope, VOLUME_CHANGE_ACCEPTED),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(attachConflicts(INSTANCE_HELD)),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { volume, accepted } = await attachVolume(c.get('deps'), customerActor(c), {
      volumeId: c.req.valid('param').cloudVolume,
      instanceId: c.req.valid('json').instance,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeVolume(volume), accepted ? 202 : 200);
  });
}
