import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { askGuestForTask } from '../guests/guest-channel.js';
import { guestAlive, guestFiles } from '../guests/guest-process.js';
import { replaceSeedNetwork } from '../guests/guest-seed.js';
import type { QemuGuests } from '../guests/guests.js';
import type { BridgedNetwork } from './bridged-network.js';
import { FIREWALL_TABLE, firewallScript } from './guest-firewall.js';
import { guestInterfaces, interfaceLines } from './guest-interfaces.js';
import { guestMac } from './guest-network.js';
import { gatewaysOf, primariesOf } from './guest-wiring.js';
import { GuestNicSlots, PRIVATE_BRIDGE_PREFIX, privateNicChanges } from './private-nics.js';

/**
 * Applies a network revision newer than the guest's, all of it (an older or equal one changes
 * nothing): the pools' gateways on the host's bridge, the private NICs put in and taken out, the
 * running guest told its NICs' addresses over its channel (it announces a moved address at once),
 * then the seed rewritten for its next boots. A guest that refuses or does not answer fails the
 * task before its revision is kept; the NICs already moved stay recorded, so a repeat goes on.
 */
export async function applyNetwork(
  guests: QemuGuests,
  p: AgentTaskParams<'network.apply'>,
  ctx: TaskContext,
) {
  const instance = guests.existing(p.instance_id);
  if (instance.network && p.revision <= instance.network.revision)
    return { revision: instance.network.revision };
  const bridged = guests.bridged('a network');
  const network = { revision: p.revision, addresses: p.addresses, nics: p.nics };
  const addresses = primariesOf(network);
  await bridged.host.carryGateways(gatewaysOf(addresses, network));
  await replugPrivateNics(guests, bridged, p.instance_id, p.nics);
  const mac = guestMac(p.instance_id);
  if (guestAlive(instance.dir)) {
    const lines = interfaceLines(guestInterfaces(mac, addresses, network));
    const answer = await askGuestForTask(
      instance.dir,
      { verb: 'set-network', user: '-', argument: Buffer.from(lines).toString('base64') },
      ctx.signal,
    );
    if (!answer.ok || answer.detail !== 'applied')
      throw new DriverFailure(
        'GUEST_NETWORK_REFUSED',
        `the guest did not apply its network: ${answer.detail}`,
        // A NIC just put in that the guest has not found yet may be found on a second try.
        answer.ok && answer.detail.startsWith('missing'),
      );
  }
  await replaceSeedNetwork(guestFiles(instance.dir).seed, { mac, addresses, network });
  Object.assign(instance, { network, addresses });
  guests.save();
  return { revision: p.revision };
}

/**
 * Applies a firewall revision newer than the guest's, the toggle and every rule in one nftables
 * transaction on the guest's tap (guest-firewall.ts): whole or not at all. The rules hold whether
 * the guest runs or not; its tap meets them at its next boot.
 */
export async function applyFirewall(guests: QemuGuests, p: AgentTaskParams<'firewall.apply'>) {
  const instance = guests.existing(p.instance_id);
  if (instance.firewall && p.revision <= instance.firewall.revision)
    return { revision: instance.firewall.revision };
  const bridged = guests.bridged('a firewall');
  const firewall = { revision: p.revision, enabled: p.enabled, rules: p.rules };
  await bridged.host.ensure();
  await bridged.host.nft(FIREWALL_TABLE + firewallScript(bridged.tap(p.instance_id), firewall));
  instance.firewall = firewall;
  guests.save();
  return { revision: p.revision };
}

/**
 * The guest's private NICs made what the panel wants: each change recorded as it is made (a
 * running guest's hot-plugged at once, a stopped one's at its next boot), so the state always says
 * which slot holds what.
 */
async function replugPrivateNics(
  guests: QemuGuests,
  bridged: BridgedNetwork,
  instanceId: string,
  wanted: AgentTaskParams<'network.apply'>['nics'],
): Promise<void> {
  const instance = guests.existing(instanceId);
  const { unplug, plug } = privateNicChanges(instance.plugged ?? [], wanted);
  const running = guestAlive(instance.dir);
  const slots = new GuestNicSlots(bridged.host, guestFiles(instance.dir).qmp, (slot) =>
    bridged.tap(instanceId, slot),
  );
  for (const nic of unplug) {
    if (running) await slots.unplug(nic.slot);
    instance.plugged = (instance.plugged ?? []).filter((p) => p.slot !== nic.slot);
    guests.save();
  }
  for (const nic of plug) {
    if (running) await slots.plug(nic);
    instance.plugged = [...(instance.plugged ?? []), nic];
    guests.save();
  }
  if (unplug.length > 0) await bridged.host.dropEmptyBridges(PRIVATE_BRIDGE_PREFIX);
}
