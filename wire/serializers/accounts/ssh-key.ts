import type { SshKeyRow } from '../../../db/repositories/accounts/ssh-keys.js';
import { z } from '../../zod.js';

export const SshKeyAttributes = z
  .object({
    uuid: z.string().uuid(),
    name: z.string(),
    fingerprint: z.string().openapi({ example: 'SHA256:Vyqd6j2p0zoL30psoF20r5aloucBEAHHvJAoATPXVeM' }),
    public_key: z.string().openapi({
      example:
        'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBvaqAz7lrs5U0pWgB8PtJpJyD7yfgrTg5MhMsNRbnVU alice@laptop',
    }),
    created_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
    updated_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
  })
  .openapi('SshKeyAttributes');

export const SshKeyEnvelope = z
  .object({ object: z.literal('ssh_key'), attributes: SshKeyAttributes })
  .openapi('SshKey');

/** The only way an SSH key row reaches a response. A public key is no secret: it is shown whole. */
export function serializeSshKey(row: SshKeyRow): z.infer<typeof SshKeyEnvelope> {
  return {
    object: 'ssh_key',
    attributes: {
      uuid: row.id,
      name: row.name,
      fingerprint: row.fingerprint,
      public_key: row.public_key,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}
