import ipaddr from 'ipaddr.js';
import type { Verdict } from '../errors.js';
import type { AddressState } from './addresses.js';

/**
 * A customer's private network (SPEC.md §4 "private-networks"): an IPv4 range of their own in one
 * location, which their instances there join with a NIC each. Nothing routes it to the outside;
 * its ranges are the private ones of RFC 1918 and never overlap another network of the account.
 */

/** Ranges a private network may take (RFC 1918). */
const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] as const;

/** From a /16 (65,534 NICs) to a /29 (six). */
export const PRIVATE_PREFIX = { min: 16, max: 29 } as const;

/** Private networks an instance joins at most: one NIC each, beside its public one. */
export const PRIVATE_NICS_PER_INSTANCE = 8;

/** A NIC is `attaching` or `detaching` between the request and its hypervisor's confirmation. */
export type NicState = AddressState;

export interface PrivateRange {
  /** Canonical: the network address and the prefix length. */
  readonly cidr: string;
  readonly prefix: number;
}

/** The range as the panel keeps it, or what is wrong with it. */
export function checkPrivateRange(cidr: string): PrivateRange | string {
  if (!ipaddr.IPv4.isValidCIDRFourPartDecimal(cidr)) return 'Must be an IPv4 range: address/prefix.';
  const [address, prefix] = ipaddr.IPv4.parseCIDR(cidr);
  if (prefix < PRIVATE_PREFIX.min || prefix > PRIVATE_PREFIX.max)
    return `The prefix must be /${PRIVATE_PREFIX.min} to /${PRIVATE_PREFIX.max}.`;
  const network = ipaddr.IPv4.networkAddressFromCIDR(cidr).toString();
  if (network !== address.toString()) return `Has host bits set: the range is ${network}/${prefix}.`;
  const inside = PRIVATE_RANGES.some((range) => address.match(ipaddr.IPv4.parseCIDR(range)));
  if (!inside) return `Must lie in a private range (${PRIVATE_RANGES.join(', ')}).`;
  return { cidr: `${network}/${prefix}`, prefix };
}

/** Whether `address` may be a NIC's address in the range: one of its hosts (not network, not broadcast). */
export function checkNicAddress(range: string, address: string): string | undefined {
  if (!ipaddr.IPv4.isValidFourPartDecimal(address)) return 'Must be an IPv4 address.';
  const parsed = ipaddr.IPv4.parse(address);
  if (!parsed.match(ipaddr.IPv4.parseCIDR(range)))
    return `Must be an address of the network’s range ${range}.`;
  const reserved = [ipaddr.IPv4.networkAddressFromCIDR(range), ipaddr.IPv4.broadcastAddressFromCIDR(range)];
  if (reserved.some((r) => r.toString() === parsed.toString()))
    return 'Must be a host address, not the network or broadcast address of the range.';
  return undefined;
}

/**
 * The MAC address of a NIC, from its id: locally administered (02:…), so it never collides with a
 * vendor's, and the same wherever the instance runs.
 */
export function nicMac(nicId: string): string {
  const hex = nicId.replaceAll('-', '').slice(-10);
  return ['02', ...(hex.match(/../g) ?? [])].join(':');
}

/** Whether the network may be deleted: not while an instance is on it. */
export function mayDeletePrivateNetwork(nics: number): Verdict {
  if (nics > 0)
    return {
      ok: false,
      code: 'SVC-INUSE-409',
      detail: `${nics} instance${nics === 1 ? ' is' : 's are'} on the network; detach ${nics === 1 ? 'it' : 'them'} first.`,
    };
  return { ok: true };
}
