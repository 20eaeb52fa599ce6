import ipaddr from 'ipaddr.js';

/**
 * An address pool of a location: a routed range the panel hands addresses out of, lowest first,
 * never its network, broadcast or gateway address. One set of rules for every API that takes one.
 */

/** The most host addresses the allocator looks at in one pool (a /16 of IPv4). */
export const POOL_SCAN_LIMIT = 65_534;

/**
 * The prefix lengths a pool may have: at least two host addresses, and no more than the allocator
 * looks at in IPv4; an IPv6 pool hands out its first POOL_SCAN_LIMIT addresses.
 */
export const POOL_PREFIX = { 4: { min: 16, max: 30 }, 6: { min: 48, max: 126 } } as const;

export interface IpPoolRange {
  readonly family: 4 | 6;
  /** Canonical: the network address and the prefix length. */
  readonly cidr: string;
  readonly gateway: string | null;
}

/** What is wrong with a range, naming the field. */
export interface IpPoolRefusal {
  readonly field: 'cidr' | 'gateway';
  readonly detail: string;
}

const validCidr = (cidr: string) =>
  ipaddr.IPv4.isValidCIDRFourPartDecimal(cidr) || (!cidr.includes('.') && ipaddr.IPv6.isValidCIDR(cidr));

/** The range as the panel keeps it, or what is wrong with it. */
export function checkIpPoolRange(cidr: string, gateway: string | null): IpPoolRange | IpPoolRefusal {
  if (!validCidr(cidr)) return { field: 'cidr', detail: 'Must be an IPv4 or IPv6 range: address/prefix.' };
  const [address, prefix] = ipaddr.parseCIDR(cidr);
  const family = address.kind() === 'ipv4' ? 4 : 6;
  const bounds = POOL_PREFIX[family];
  if (prefix < bounds.min || prefix > bounds.max)
    return {
      field: 'cidr',
      detail: `The prefix of an IPv${family} pool must be /${bounds.min} to /${bounds.max}.`,
    };
  const network =
    family === 4 ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  if (network.toString() !== address.toString())
    return { field: 'cidr', detail: `Has host bits set: the range is ${network.toString()}/${prefix}.` };
  const range = { family, cidr: `${network.toString()}/${prefix}` } as const;
  if (gateway === null) return { ...range, gateway: null };

  if (!ipaddr.isValid(gateway) || (gateway.includes('.') && !ipaddr.IPv4.isValidFourPartDecimal(gateway)))
    return { field: 'gateway', detail: 'Must be an IP address.' };
  const parsed = ipaddr.parse(gateway);
  if (parsed.kind() !== address.kind() || !parsed.match(network, prefix))
    return { field: 'gateway', detail: 'Must be an address inside the range.' };
  const broadcast = family === 4 ? ipaddr.IPv4.broadcastAddressFromCIDR(cidr).toString() : undefined;
  if (parsed.toString() === network.toString() || parsed.toString() === broadcast)
    return {
      field: 'gateway',
      detail: 'Must be a host address of the range, not its network or broadcast address.',
    };
  return { ...range, gateway: parsed.toString() };
}

/** How many addresses the pool can hand out: its host addresses, less the gateway, as far as the allocator looks. */
export function poolCapacity(range: { cidr: string; gateway: string | null }): number {
  const [address, prefix] = ipaddr.parseCIDR(range.cidr);
  const bits = (address.kind() === 'ipv4' ? 32 : 128) - prefix;
  // IPv4 loses its network and broadcast addresses; IPv6 its network address (the subnet-router anycast).
  const hosts = bits >= 20 ? POOL_SCAN_LIMIT : 2 ** bits - (address.kind() === 'ipv4' ? 2 : 1);
  return Math.min(hosts, POOL_SCAN_LIMIT) - (range.gateway === null ? 0 : 1);
}

/** How many more addresses the pool can hand out: its capacity less those taken. */
export const poolFree = (pool: { cidr: string; gateway: string | null; assigned: number }): number =>
  Math.max(0, poolCapacity(pool) - pool.assigned);
