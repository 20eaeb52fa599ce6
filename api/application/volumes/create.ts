import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { createVolume } from '../../../services/storage/volumes.js';
import { CreateVolumeBody } from '../../../wire/requests/volume.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { AdminVolumeEnvelope, serializeAdminVolume } from '../../../wire/serializers/storage/volume.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';

const Body = CreateVolumeBody.extend({
  user: z.string().uuid().openapi({ description: 'The customer it is for.' }),
}).openapi('AdminCreateVolumeRequest');

const route = createRoute({
  method: 'post',
  path: '/volumes',
  tags: ['Volumes'],
  summary: 'Create a volume for a customer',
  description:
    'As the customer would make it (`POST /api/client/cloud/volumes`): a name unique among their volumes, ' +
    'within their `MAX_VOLUMES_PER_USER` and `VOLUME_MAX_SIZE_MB`. Recorded in their activity log with the ' +
    'administrator as the actor; nothing is made on a hypervisor until its first attach.',
  request: { body: jsonBody(Body) },
  responses: {
    201: jsonContent(AdminVolumeEnvelope, 'The volume was created.'),
    ...commonErrors,
    ...conflictResponse(
      'The name is taken (SVC-CONFLICT-409); the account holds its most volumes, or the size is above ' +
        '`VOLUME_MAX_SIZE_MB` (SVC-QUOTA-409); the owner would pass their `volumes` or `disk_mb` quota ' +
        '(QUOTA_EXCEEDED).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { user, size_mb, ...body } = c.req.valid('json');
    const volume = await createVolume(c.get('deps'), adminActor(c), {
      ...body,
      sizeMb: size_mb,
      ownerId: user,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeAdminVolume(volume), 201);
  });
}
