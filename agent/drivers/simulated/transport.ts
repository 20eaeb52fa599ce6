import { createHmac, timingSafeEqual } from 'node:crypto';
import { DriverFailure } from '../driver.js';

// The simulated hypervisors' stand-in for a move's TLS (docs/migration.md "Transport"): the
// sender's offer is its descriptor with a MAC under the move's transport key, and the receiver
// takes it only under the same key, as a TLS-PSK handshake succeeds only between holders of one
// key. The MAC is no secret: the offer (in the panel's records) may carry it.

const macOf = (body: string, key: string) => createHmac('sha256', key).update(body).digest('base64url');

/** What the sender offers, as its endpoint: `<prefix><descriptor>.<mac>`. */
export function sealOffer(prefix: string, content: unknown, key: string): string {
  const body = Buffer.from(JSON.stringify(content)).toString('base64url');
  return `${prefix}${body}.${macOf(body, key)}`;
}

/** The descriptor of an offer made under `key`; refused when made under another (or none). */
export function openOffer<T>(endpoint: string, prefix: string, key: string): T {
  if (!endpoint.startsWith(prefix))
    throw new DriverFailure('TRANSFER_ENDPOINT_UNKNOWN', 'the sender is not a simulated hypervisor', false);
  const [body = '', mac = ''] = endpoint.slice(prefix.length).split('.');
  const expected = Buffer.from(macOf(body, key));
  if (expected.length !== mac.length || !timingSafeEqual(expected, Buffer.from(mac)))
    throw new DriverFailure('TRANSFER_REFUSED', 'the sender holds another transport key', false);
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
}
