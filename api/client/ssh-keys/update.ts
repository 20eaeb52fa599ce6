import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { renameSshKey } from '../../../services/ssh-keys.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { SshKeyEnvelope, serializeSshKey } from '../../../wire/serializers/accounts/ssh-key.js';
import { z } from '../../../wire/zod.js';
import { customerActor } from '../../auth/principals.js';
import { sshKeyName } from './fields.js';

const UpdateSshKeyBody = z.strictObject({ name: sshKeyName() }).openapi('UpdateSshKeyRequest');

const route = createRoute({
  method: 'patch',
  path: '/ssh-keys/{keyUuid}',
  tags: ['SSH keys'],
  summary: 'Rename an SSH key',
  description:
    'Only the name changes: a key itself cannot be edited (delete it and add the new one). Renaming a key ' +
    'to the name it has changes nothing. Instances already made with the key keep it.',
  request: { params: uuidParam('keyUuid'), body: jsonBody(UpdateSshKeyBody) },
  responses: {
    200: jsonContent(SshKeyEnvelope, 'The key.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('Another key of the account has this name (SVC-CONFLICT-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { keyUuid } = c.req.valid('param');
    const key = await renameSshKey(c.get('deps'), customerActor(c), {
      keyId: keyUuid,
      name: c.req.valid('json').name,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeSshKey(key), 200);
  });
}
