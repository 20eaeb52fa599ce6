import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createVolume } from '../../../services/storage/volumes.js';
import { CreateVolumeBody } from '../../../wire/requests/volume.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { serializeVolume, VolumeEnvelope } from '../../../wire/serializers/storage/volume.js';
import { customerActor } from '../../auth/principals.js';

const route = createRoute({
  method: 'post',
  path: '/volumes',
  tags: ['Volumes'],
  summary: 'Create a volume',
  description:
    'A disk of your own in one location, which goes on one of your instances there at a time ' +
    '(`/volumes/{cloudVolume}/attach`). It is `available` at once; nothing is made on a hypervisor until its ' +
    'first attach, which makes its disk on the instance’s hypervisor and keeps it there: from then on it ' +
    'attaches to instances on that hypervisor. Names are unique per account; an account holds at most ' +
    '`MAX_VOLUMES_PER_USER` volumes (20 by default).',
  request: { body: jsonBody(CreateVolumeBody) },
  responses: {
    201: jsonContent(VolumeEnvelope, 'The volume was created.'),
    ...commonErrors,
    ...conflictResponse(
      'The name is taken (SVC-CONFLICT-409); the account holds its most volumes, or the size is above ' +
        '`VOLUME_MAX_SIZE_MB` (SVC-QUOTA-409); the account would pass its `volumes` or `disk_mb` quota ' +
        '(QUOTA_EXCEEDED).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const actor = customerActor(c);
    const volume = await createVolume(c.get('deps'), actor, {
      name: body.name,
      location: body.location,
      backend: body.backend,
      sizeMb: body.size_mb,
      ownerId: actor.userId,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeVolume(volume), 201);
  });
}
