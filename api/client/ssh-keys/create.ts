import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { text } from '../../../domain/input-bounds.js';
import { MAX_PUBLIC_KEY_LENGTH } from '../../../domain/ssh-keys.js';
import type { AppEnv } from '../../../http/context.js';
import { createSshKey } from '../../../services/ssh-keys.js';
import { commonErrors, conflictResponse, jsonBody, jsonContent } from '../../../wire/schemas.js';
import { SshKeyEnvelope, serializeSshKey } from '../../../wire/serializers/accounts/ssh-key.js';
import { z } from '../../../wire/zod.js';
import { customerActor } from '../../auth/principals.js';
import { sshKeyName } from './fields.js';

const CreateSshKeyBody = z
  .strictObject({
    name: sshKeyName(),
    public_key: text({ max: MAX_PUBLIC_KEY_LENGTH, trim: true }).openapi({
      description: 'One line of an authorized_keys file without options: `<type> <base64> [comment]`.',
      example:
        'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBvaqAz7lrs5U0pWgB8PtJpJyD7yfgrTg5MhMsNRbnVU alice@laptop',
    }),
  })
  .openapi('CreateSshKeyRequest');

const route = createRoute({
  method: 'post',
  path: '/ssh-keys',
  tags: ['SSH keys'],
  summary: 'Add an SSH public key',
  description:
    'Accepted key types: `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ecdsa-sha2-nistp384`, `ecdsa-sha2-nistp521`, ' +
    'and `ssh-rsa` of 2048 to 16384 bits; DSA and every other type are refused. The key data is read in the ' +
    'SSH wire format and must hold a key of the type the line names. The comment is kept; `fingerprint` is ' +
    'the SHA-256 fingerprint as `ssh-keygen -l` prints it. Names are unique per account, and so is each key. ' +
    'An account holds at most `SSH_KEYS_MAX_PER_USER` keys (50 by default).',
  request: { body: jsonBody(CreateSshKeyBody) },
  responses: {
    201: jsonContent(SshKeyEnvelope, 'The key was added.'),
    ...commonErrors,
    ...conflictResponse(
      'A key with this name, or this same key, is already on the account; or the account holds the most ' +
        'keys it may (SVC-CONFLICT-409).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const key = await createSshKey(c.get('deps'), customerActor(c), {
      name: body.name,
      publicKey: body.public_key,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeSshKey(key), 201);
  });
}
