import type { GuestAddresses } from '../../../../domain/agent-tasks.js';
import type { GuestWiring } from '../state.js';
import { FIREWALL_TABLE, firewallRemovalScript, firewallScript } from './guest-firewall.js';
import type { GuestNetworkSet } from './guest-interfaces.js';
import type { HostNetwork } from './host-network.js';

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
 * A guest's tap, just opened by its QEMU, taken onto the public bridge with its pools' gateways
 * and its firewall (none until the panel applies one): done at every boot, and where a migration
 * starts the arriving guest, so a host whose namespace was lost (a reboot) has it all again.
 */
export async function wireGuest(
  host: HostNetwork,
  tap: string,
  primaries: GuestAddresses | undefined,
  wiring: GuestWiring,
): Promise<void> {
  await host.ensure();
  await host.plug(tap);
  await host.carryGateways(gatewaysOf(primaries, wiring.network));
  await host.nft(FIREWALL_TABLE + firewallScript(tap, wiring.firewall ?? { enabled: false, rules: [] }));
}

/** What the host holds for a guest that is gone from it: its firewall's chains and flow sets. */
export async function unwireGuest(host: HostNetwork, tap: string): Promise<void> {
  await host.nft(FIREWALL_TABLE + firewallRemovalScript(tap));
}
