import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findInstanceStorage } from '../../../../db/repositories/storage/instance-storage.js';
import type { AppEnv } from '../../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../../wire/schemas.js';
import {
  InstanceStorageEnvelope,
  serializeInstanceStorage,
} from '../../../../wire/serializers/storage/instance-storage.js';
import { callersInstance } from '../callers-instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/storage',
  tags: ['Storage'],
  summary: 'The instance’s storage at a glance',
  description:
    'Its root disk: the size its hypervisor reported, how far its plan lets it grow, the size a grow under ' +
    'way takes it to, and the storage backend it is on; and your volumes on it.',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    200: jsonContent(InstanceStorageEnvelope, 'The instance’s storage.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const instance = await callersInstance(c, c.req.valid('param').cloudInstance);
    return c.json(serializeInstanceStorage(await findInstanceStorage(c.get('deps').db, instance.id)), 200);
  });
}
