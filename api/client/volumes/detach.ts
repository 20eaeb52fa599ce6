import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { detachVolume } from '../../../services/storage/volume-detach.js';
import { VolumeDetachBody } from '../../../wire/requests/volume.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { serializeVolume, VolumeEnvelope } from '../../../wire/serializers/storage/volume.js';
import { customerActor } from '../../auth/principals.js';
import { VOLUME_CHANGE_ACCEPTED } from '../../routes-kit/volumes.js';

const route = createRoute({
  method: 'post',
  path: '/volumes/{cloudVolume}/detach',
  tags: ['Volumes'],
  summary: 'Detach a volume from its instance',
  description:
    'The volume comes off its instance: an operation of the instance (`volume_detach`). A running guest lets go ' +
    'of the disk first (unmount it before). Its content stays, on the hypervisor that keeps it. The volume is ' +
    '`detaching`, then `available`; `attached` again if the hypervisor failed. On no instance: 200. The body ' +
    'may be left out.',
  request: { params: uuidParam('cloudVolume'), body: optionalJsonBody(VolumeDetachBody) },
  responses: {
    200: jsonContent(VolumeEnvelope, 'The volume is on no instance; nothing changed.'),
    202: jsonContent(VolumeEnvelope, VOLUME_CHANGE_ACCEPTED),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(`The volume is changing (SVC-CONFLICT-409); ${INSTANCE_HELD}`),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { volume, accepted } = await detachVolume(c.get('deps'), customerActor(c), {
      volumeId: c.req.valid('param').cloudVolume,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeVolume(volume), accepted ? 202 : 200);
  });
}
