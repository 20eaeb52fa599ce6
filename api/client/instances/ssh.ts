import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findOsFamilyOfInstance } from '../../../db/repositories/catalogue/images.js';
import { listInstanceSshKeys } from '../../../db/repositories/instances/instances.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import {
  SshConnectionEnvelope,
  serializeSshConnection,
} from '../../../wire/serializers/instances/ssh-connection.js';
import { callersInstance } from './callers-instance.js';

const route = createRoute({
  method: 'get',
  path: '/{cloudInstance}/ssh',
  tags: ['Instances'],
  summary: 'SSH connection information',
  description:
    '`host` is the primary IPv4 address, else the primary IPv6 address, null when the instance has ' +
    'neither; `port` is 22. `username` follows the image’s OS family: `debian` for Debian, `ubuntu` for ' +
    'Ubuntu (their cloud images log in as that user, not root), `root` for every other image. `keys` are ' +
    'the name and fingerprint of each SSH key the instance was created (or last rebuilt) with.',
  request: { params: uuidParam('cloudInstance') },
  responses: {
    200: jsonContent(SshConnectionEnvelope, 'How to connect.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance } = c.req.valid('param');
    const db = c.get('deps').db;
    const instance = await callersInstance(c, cloudInstance);
    const osFamily = await findOsFamilyOfInstance(db, instance.id);
    const keys = await listInstanceSshKeys(db, instance.id);
    return c.json(serializeSshConnection(instance, osFamily, keys), 200);
  });
}
