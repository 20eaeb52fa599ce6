import type { GuestAddresses } from '../../../../domain/agent-tasks.js';
import type { GuestWiring } from '../guests/state.js';
import { FIREWALL_TABLE, firewallRemovalScript, firewallScript } from './guest-firewall.js';
import type { GuestNetworkSet } from './guest-interfaces.js';
import type { HostNetwork } from './host-network.js';
import { PRIVATE_BRIDGE_PREFIX, privateBridge, type TappedNic } from './private-nics.js';

/** The gateways of every address the guest has, with their pools' prefix lengths. */
export function gatewaysOf(primaries: GuestAddresses | undefined, network: GuestNetworkSet | undefined) {
  const addresses = network?.addresses ?? [primaries?.ipv4, primaries?.ipv6].filter((a) => a != null);
  const seen = new Map<string, { gateway: string; prefix: number }>();
  for (const a of addresses) if (a.gateway) seen.set(a.gateway, { gateway: a.gateway, prefix: a.prefix });
  return [...seen.values()];
}

/** The primary addresses within a network set, as the guest's seed and user-mode network name them. */
export function primariesOf(network: GuestNetworkSet): GuestAddresses {
  const primary = (family: 4 | 6) => {
    const found = network.addresses.find((a) => a.primary && a.family === family);
    return found ? { address: found.address, prefix: found.prefix, gateway: found.gateway } : null;
  };
  return { ipv4: primary(4), ipv6: primary(6) };
}

/**
 * A guest's taps, just opened by its QEMU: the public one taken onto the public bridge with its
 * pools' gateways and its firewall (none until the panel applies one), each private NIC's onto
 * its network's bridge. Done at every boot, and where a migration starts the arriving guest, so a
 * host whose namespace was lost (a reboot) has it all again.
 */
export async function wireGuest(
  host: HostNetwork,
  taps: { tap: string; privateNics?: readonly TappedNic[] },
  primaries: GuestAddresses | undefined,
  wiring: GuestWiring,
): Promise<void> {
  await host.ensure();
  await host.plug(taps.tap);
  for (const nic of taps.privateNics ?? []) await host.plug(nic.tap, privateBridge(nic.network_id));
  await host.carryGateways(gatewaysOf(primaries, wiring.network));
  await host.nft(FIREWALL_TABLE + firewallScript(taps.tap, wiring.firewall ?? { enabled: false, rules: [] }));
}

/**
 * What the host holds for a guest that is gone from it: its firewall's chains and flow sets, and
 * the bridges of private networks no guest is on any more (its private taps closed with its QEMU).
 */
export async function unwireGuest(host: HostNetwork, tap: string): Promise<void> {
  await host.nft(FIREWALL_TABLE + firewallRemovalScript(tap));
  await host.dropEmptyBridges(PRIVATE_BRIDGE_PREFIX);
}
