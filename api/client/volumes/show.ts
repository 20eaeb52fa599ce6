import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findVolumeOfUser } from '../../../db/repositories/storage/volumes.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { serializeVolume, VolumeEnvelope } from '../../../wire/serializers/storage/volume.js';
import { customerId } from '../../auth/principals.js';

const route = createRoute({
  method: 'get',
  path: '/volumes/{cloudVolume}',
  tags: ['Volumes'],
  summary: 'Show a volume',
  description: 'Its size, its state and the instance it is on.',
  request: { params: uuidParam('cloudVolume') },
  responses: {
    200: jsonContent(VolumeEnvelope, 'The volume.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const volume = await findVolumeOfUser(c.get('deps').db, customerId(c), c.req.valid('param').cloudVolume);
    if (!volume) throw notFound();
    return c.json(serializeVolume(volume), 200);
  });
}
