import ipaddr from 'ipaddr.js';

// Where an ISO may be fetched from (SSRF): the panel checks the URL it is given, and the agent that
// fetches it checks every address the host resolves to, at the moment it connects.

export const ISO_URL_MAX = 2048;

export interface IsoSourcePolicy {
  /** Whether `http` is taken besides `https` (ISO_ALLOW_HTTP). */
  readonly allowHttp: boolean;
  /** Networks taken besides public addresses (ISO_ALLOWED_NETWORKS: an internal mirror). */
  readonly allowedNetworks: readonly string[];
}

/**
 * Whether a connection to `address` may be made: a public unicast address, or one of the
 * networks the provider allowed. Private, loopback, link-local (the cloud metadata address among
 * them), unique-local, carrier-grade NAT, multicast, reserved and unspecified addresses are not.
 */
export function mayFetchFrom(address: string, allowedNetworks: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  for (const network of allowedNetworks) {
    const [range, bits] = ipaddr.parseCIDR(network);
    if (range.kind() === parsed.kind() && parsed.match(range, bits)) return true;
  }
  return parsed.range() === 'unicast';
}

/** Whether each entry is a CIDR (`192.0.2.0/24`, `2001:db8::/32`); the first that is not, otherwise. */
export function invalidNetwork(networks: readonly string[]): string | undefined {
  return networks.find((n) => {
    try {
      ipaddr.parseCIDR(n);
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * The URL an ISO is fetched from, or why not: `https` (and `http` only when allowed), a host, no
 * user name or password (it would be stored and shown), no fragment; a host given as an address
 * must be one `mayFetchFrom` takes. A name is resolved, and its addresses checked, by the agent.
 */
export function checkIsoUrl(raw: string, policy: IsoSourcePolicy): { url: string } | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Must be an absolute URL.';
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    return policy.allowHttp ? 'Must be an https or http URL.' : 'Must be an https URL.';
  if (url.username || url.password) return 'Must not hold a user name or password.';
  if (url.hash) return 'Must not have a fragment.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) return 'Must name a host.';
  if (ipaddr.isValid(host) && !mayFetchFrom(host, policy.allowedNetworks))
    return 'Must not point at a private, loopback, link-local or metadata address.';
  if (host === 'localhost' || host.endsWith('.localhost'))
    return 'Must not point at a private, loopback, link-local or metadata address.';
  return { url: url.toString() };
}
