import { createHash } from 'node:crypto';
import type { GuestAddresses } from '../../../../domain/agent-tasks.js';

/**
 * What backs a guest's NIC: QEMU's user-mode network (`restrict=on`: the guest reaches neither the
 * host nor anything beyond it), a tap on the host's bridge (host-network.ts), or nothing (the NIC
 * is there, its cable unplugged). The NIC itself is always there, so the device set, which a live
 * migration's target must repeat, does not depend on it; the backend must match between agents
 * that move guests live to each other.
 */
export const GUEST_NETWORKS = ['user', 'bridged', 'none'] as const;
export type GuestNetwork = (typeof GUEST_NETWORKS)[number];

/** A locally administered unicast MAC, the same for an instance wherever it runs. */
export function guestMac(instanceId: string): string {
  const bytes = createHash('sha256').update(instanceId).digest().subarray(0, 6);
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(':');
}

const ipv4ToInt = (address: string) => address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
const intToIpv4 = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');

/**
 * The user-mode network's options shaped like the panel's IPv4 network, so that the address the
 * guest is given (by its seed, or by DHCP, whose first lease is that address) works: the network
 * is the pool's, QEMU's own host side answers as the pool's gateway, and its DNS takes an address
 * the guest does not use. A pool too small for that (a /30 or less) keeps QEMU's default network.
 */
function ipv4Options(ipv4: NonNullable<GuestAddresses['ipv4']>): string[] {
  if (ipv4.prefix < 8 || ipv4.prefix > 29) return [];
  const size = 2 ** (32 - ipv4.prefix);
  const network = ipv4ToInt(ipv4.address) - (ipv4ToInt(ipv4.address) % size);
  const own = ipv4ToInt(ipv4.address);
  const inNetwork = (n: number) => n > network && n < network + size - 1;
  const gateway = ipv4.gateway ? ipv4ToInt(ipv4.gateway) : undefined;
  const host = gateway !== undefined && inNetwork(gateway) && gateway !== own ? gateway : undefined;
  const spare = (taken: (number | undefined)[]) => {
    for (let n = network + size - 2; n > network; n--) if (!taken.includes(n)) return n;
    return undefined;
  };
  const hostSide = host ?? spare([own]);
  const dns = spare([own, hostSide]);
  if (hostSide === undefined || dns === undefined) return [];
  return [
    `net=${intToIpv4(network)}/${ipv4.prefix}`,
    `host=${intToIpv4(hostSide)}`,
    `dns=${intToIpv4(dns)}`,
    `dhcpstart=${ipv4.address}`,
  ];
}

/**
 * The `-netdev user` of a guest: restricted, shaped like the panel's network where the guest has
 * an IPv4 address from it, and with its SSH port forwarded from `sshPort` on the host's loopback
 * when asked.
 */
export function userNetdev(addresses: GuestAddresses | undefined, sshPort?: number): string {
  const shaped = addresses?.ipv4 ? ipv4Options(addresses.ipv4) : [];
  const guestAddress = shaped.length > 0 ? addresses!.ipv4!.address : '';
  const forward = sshPort === undefined ? [] : [`hostfwd=tcp:127.0.0.1:${sshPort}-${guestAddress}:22`];
  return ['user', 'id=net0', 'restrict=on', ...shaped, ...forward].join(',');
}
