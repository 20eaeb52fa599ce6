import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listIsosOfInstance } from '../../../../db/repositories/storage/instance-isos.js';
import type { AppEnv } from '../../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../../wire/schemas.js';
import { IsoListEnvelope, serializeIso } from '../../../../wire/serializers/storage/iso.js';
import { callersInstance } from '../callers-instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/media/iso',
  tags: ['Media'],
  summary: 'The instance’s ISO library',
  description:
    'Every ISO added to it, oldest first, with its state; at most `MAX_ISOS_PER_INSTANCE` (5 by default).',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    200: jsonContent(IsoListEnvelope, 'The library.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const instance = await callersInstance(c, c.req.valid('param').cloudInstance);
    const rows = await listIsosOfInstance(c.get('deps').db, instance.id);
    return c.json({ data: rows.map(serializeIso) }, 200);
  });
}
