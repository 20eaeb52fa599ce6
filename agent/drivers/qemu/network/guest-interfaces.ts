import type { AgentTaskParams, GuestAddresses } from '../../../../domain/agent-tasks.js';

/** The instance's whole network as `network.apply` gives it (its revision, addresses and private NICs). */
export type GuestNetworkSet = Omit<AgentTaskParams<'network.apply'>, 'instance_id'>;

/** One NIC of the guest as it configures it: found by its MAC, with its addresses and default routes. */
export interface GuestInterface {
  readonly name: string;
  readonly mac: string;
  /** `address/prefix`, primary first. */
  readonly addresses: readonly string[];
  readonly gateway4: string | null;
  readonly gateway6: string | null;
}

/**
 * The guest's NICs: the public one (`eth0`, its MAC the instance's) with every address of the
 * panel's (a floating one as a single host: it is routed to the guest, not a network it is on)
 * and the primary addresses' gateways, then one per private network (`pnet0`, …), without a
 * gateway. Without a network set (a guest never told more), the primary addresses alone.
 */
export function guestInterfaces(
  mac: string,
  primaries: GuestAddresses | undefined,
  network: GuestNetworkSet | undefined,
): GuestInterface[] {
  if (!network) {
    const { ipv4, ipv6 } = primaries ?? { ipv4: null, ipv6: null };
    const addresses = [ipv4, ipv6].filter((a) => a !== null);
    return [
      {
        name: 'eth0',
        mac,
        addresses: addresses.map((a) => `${a.address}/${a.prefix}`),
        gateway4: ipv4?.gateway ?? null,
        gateway6: ipv6?.gateway ?? null,
      },
    ];
  }
  const ordered = [...network.addresses].sort((a, b) => Number(b.primary) - Number(a.primary));
  const gateway = (family: 4 | 6) =>
    network.addresses.find((a) => a.primary && a.family === family)?.gateway ?? null;
  return [
    {
      name: 'eth0',
      mac,
      addresses: ordered.map((a) => `${a.address}/${a.floating ? (a.family === 4 ? 32 : 128) : a.prefix}`),
      gateway4: gateway(4),
      gateway6: gateway(6),
    },
    ...network.nics.map((nic, i) => ({
      name: `pnet${i}`,
      mac: nic.mac,
      addresses: [`${nic.address}/${nic.prefix}`],
      gateway4: null,
      gateway6: null,
    })),
  ];
}

/** The interfaces as the guest's network script reads them (scripts/images/guest-network.sh). */
export function interfaceLines(interfaces: readonly GuestInterface[]): string {
  return interfaces
    .map((i) => `${i.mac} ${i.addresses.join(',') || '-'} ${i.gateway4 ?? '-'} ${i.gateway6 ?? '-'}\n`)
    .join('');
}
