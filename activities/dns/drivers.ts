import type { DnsProtocol } from '../../domain/providers.js';
import type { DnsDriver, DnsFailure } from './driver.js';
import { powerDnsDriver } from './powerdns.js';
import { rfc2136Driver, rfc2136ServerOf } from './rfc2136/driver.js';

/**
 * The driver a DNS provider's protocol calls for, with its credential opened: PowerDNS's HTTP API
 * with the API key, or RFC 2136 updates signed with the TSIG key. A credential or endpoint the
 * protocol cannot use (stored before the rules, or changed behind the API) is a failure, not a throw.
 */
export function driverFor(provider: {
  readonly protocol: DnsProtocol | null;
  readonly endpoint: string;
  readonly credential: string;
}): { driver: DnsDriver } | { failure: DnsFailure } {
  if (provider.protocol !== 'rfc2136')
    return { driver: powerDnsDriver({ endpoint: provider.endpoint, apiKey: provider.credential }) };
  const opened = rfc2136ServerOf(provider.endpoint, provider.credential);
  return 'failure' in opened ? opened : { driver: rfc2136Driver(opened.server) };
}
