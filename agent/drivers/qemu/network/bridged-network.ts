import type { GuestAddresses } from '../../../../domain/agent-tasks.js';
import type { GuestWiring, PluggedNic } from '../guests/state.js';
import { unwireGuest, wireGuest } from './guest-wiring.js';
import { HostNetwork, type TapCounters, tapName } from './host-network.js';
import type { TappedNic } from './private-nics.js';

/**
 * This agent's guests on the bridged network (AGENT_QEMU_NETWORK=bridged): the namespace they are
 * wired in and the names of their taps, which depend on the agent (`owner`, its state directory)
 * so two agents of one host never make the same one.
 */
export class BridgedNetwork {
  readonly host: HostNetwork;

  constructor(
    namespace: string,
    private readonly owner: string,
  ) {
    this.host = new HostNetwork(namespace);
  }

  /** The tap of a guest's NIC: 0 the public one, a slot's number a private one's. */
  tap(instanceId: string, nic = 0): string {
    return tapName(this.owner, instanceId, nic);
  }

  /** The taps QEMU opens for a guest: the public NIC's and each private NIC's, in its slot. */
  taps(instanceId: string, plugged: readonly PluggedNic[] | undefined) {
    return {
      tap: this.tap(instanceId),
      privateNics: (plugged ?? []).map((nic): TappedNic => ({ ...nic, tap: this.tap(instanceId, nic.slot) })),
    };
  }

  /** Wires a guest whose QEMU has just opened its taps (guest-wiring.ts). */
  wire(instanceId: string, guest: { addresses?: GuestAddresses } & GuestWiring): Promise<void> {
    return wireGuest(this.host, this.taps(instanceId, guest.plugged), guest.addresses, guest);
  }

  /** Drops what the namespace holds for a guest gone from this host. */
  unwire(instanceId: string): Promise<void> {
    return unwireGuest(this.host, this.tap(instanceId));
  }

  /** The byte counters of every tap, by name (the guests' bandwidth). */
  counters(): Promise<Map<string, TapCounters>> {
    return this.host.counters();
  }
}
