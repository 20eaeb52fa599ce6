import type { Instance } from '../../../db/repositories/instances/instances.js';
import { loginUserOf } from '../../../domain/images.js';
import { z } from '../../zod.js';

export const SSH_PORT = 22;

export const SshConnectionAttributes = z
  .object({
    host: z.string().nullable().openapi({ example: '203.0.113.10' }),
    port: z.number().int().openapi({ example: SSH_PORT }),
    username: z.string().openapi({ example: 'debian' }),
    keys: z.array(
      z.object({
        name: z.string(),
        fingerprint: z.string().openapi({ example: 'SHA256:Vyqd6j2p0zoL30psoF20r5aloucBEAHHvJAoATPXVeM' }),
      }),
    ),
  })
  .openapi('SshConnectionAttributes');

export const SshConnectionEnvelope = z
  .object({ object: z.literal('ssh_connection'), attributes: SshConnectionAttributes })
  .openapi('SshConnection');

/** How to reach an instance over SSH: its primary address (IPv4 first), and who logs in with which keys. */
export function serializeSshConnection(
  instance: Pick<Instance, 'primary_ipv4' | 'primary_ipv6'>,
  osFamily: string | undefined,
  keys: readonly { name: string; fingerprint: string }[],
): z.infer<typeof SshConnectionEnvelope> {
  return {
    object: 'ssh_connection',
    attributes: {
      host: instance.primary_ipv4 ?? instance.primary_ipv6 ?? null,
      port: SSH_PORT,
      username: loginUserOf(osFamily ?? ''),
      keys: keys.map((key) => ({ name: key.name, fingerprint: key.fingerprint })),
    },
  };
}
