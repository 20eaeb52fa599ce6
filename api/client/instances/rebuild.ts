import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { rebuildInstance } from '../../../services/instances/rebuild.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../../wire/serializers/instances/instance.js';
import { z } from '../../../wire/zod.js';
import { customerActor } from '../../auth/principals.js';
import { userDataField } from '../../routes-kit/instance-order.js';

const RebuildBody = z
  .object({
    image: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9][a-z0-9._-]*$/)
      .optional()
      .openapi({ example: 'debian-12', description: 'An image’s code; the current image when absent.' }),
    ssh_keys: z
      .array(z.string().uuid())
      .max(20)
      .optional()
      .openapi({ description: 'The caller’s SSH keys to install; the instance’s current keys when absent.' }),
    user_data: userDataField
      .nullable()
      .optional()
      .openapi({
        description:
          'cloud-init user-data replacing the instance’s, as at create (base64; a cloud-config or a script, ' +
          'at most 32768 bytes decoded); null removes it; absent keeps the one it has.',
      }),
  })
  .strict()
  .openapi('RebuildRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/rebuild',
  tags: ['Instances'],
  summary: 'Rebuild the instance from an image',
  description:
    'Writes the disk anew from the image (everything on it is lost), with a new root password, readable ' +
    'once from `GET /{cloudInstance}/settings/password` when the rebuild is done, the instance’s ' +
    'hostname and timezone, and its user-data (the one given, else the one it has). A `user_data` refused ' +
    '(400) changes nothing. Allowed from `running` and `stopped`; the instance is `rebuilding`, then ' +
    '`running`. A failed rebuild leaves it in `error` (a rebuild cannot be undone).',
  request: { params: uuidParam('cloudInstance'), body: jsonBody(RebuildBody) },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance in `rebuilding`.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'Not allowed in the current status (SVC-CONFLICT-409); another operation is in progress (SVC-OP-409); ' +
        'the instance is migrating (INSTANCE_MIGRATING); ' +
        'the provider suspended it (INSTANCE_SUSPENDED).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const instance = await rebuildInstance(c.get('deps'), customerActor(c), {
      instanceId: c.req.valid('param').cloudInstance,
      image: body.image,
      sshKeyIds: body.ssh_keys,
      userData: body.user_data,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 202);
  });
}
