import { request as plainRequest } from 'node:http';
import { request as tlsRequest } from 'node:https';
import type { MoveKey } from '../../agent/drivers/qemu/migration/transport.js';
import { pullerTls } from '../../agent/drivers/qemu/migration/transport.js';
import { mintTransportKey } from '../../domain/migrations/transport.js';

/** A fresh transport key for a move a test drives by hand, as the panel would mint it. */
export const testTransportKey = (): string => mintTransportKey();

/** The `transport_secret` of a move's disk tasks, as the agent receives it (opened). */
export const keyed = (key: string) => ({ transport_secret: key });

/**
 * How a client knocks at a move's transfer channel: `plain` HTTP, TLS without a key (`no-key`),
 * or TLS under a move's key (right or wrong).
 */
export type ChannelClient = 'plain' | 'no-key' | MoveKey;

/**
 * What the client gets for `url` (an endpoint and a path): the HTTP status and the checksum the
 * source announces, or the error that ended the connection before any answer.
 */
export function channelAnswer(
  url: string,
  client: ChannelClient,
): Promise<{ status: number; checksum: string | null } | { error: string }> {
  return new Promise((resolve) => {
    const answered = (res: import('node:http').IncomingMessage) => {
      resolve({ status: res.statusCode ?? 0, checksum: (res.headers['x-checksum'] as string) ?? null });
      res.destroy();
    };
    const req =
      client === 'plain'
        ? plainRequest(url.replace(/^https:/, 'http:'), { agent: false }, answered)
        : tlsRequest(
            url,
            client === 'no-key'
              ? { agent: false, rejectUnauthorized: false }
              : { agent: false, ...pullerTls(client) },
            answered,
          );
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}
