import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { DriverFailure, type TaskContext } from '../../driver.js';
import { askGuestForTask } from '../guest-channel.js';
import { guestAlive, guestFiles } from '../guest-process.js';
import { replaceSeedNetwork } from '../guest-seed.js';
import type { QemuGuests } from '../guests.js';
import { FIREWALL_TABLE, firewallScript } from './guest-firewall.js';
import { guestInterfaces, interfaceLines } from './guest-interfaces.js';
import { guestMac } from './guest-network.js';
import { gatewaysOf, primariesOf } from './guest-wiring.js';

/**
 * Applies a network revision newer than the guest's, all of it (an older or equal one changes
 * nothing): the pools' gateways on the host's bridge, the running guest told its NICs' addresses
 * over its channel (it announces a moved address at once), then the seed rewritten for its next
 * boots. A guest that refuses or does not answer fails the task before anything of it is kept.
 */
export async function applyNetwork(
  guests: QemuGuests,
  p: AgentTaskParams<'network.apply'>,
  ctx: TaskContext,
) {
  const instance = guests.existing(p.instance_id);
  if (instance.network && p.revision <= instance.network.revision)
    return { revision: instance.network.revision };
  const host = guests.bridged('a network');
  if (p.nics.length > 0)
    throw new DriverFailure('NOT_SUPPORTED', 'the QEMU driver does not wire private networks yet', false);
  const network = { revision: p.revision, addresses: p.addresses, nics: p.nics };
  const addresses = primariesOf(network);
  await host.carryGateways(gatewaysOf(addresses, network));
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
        false,
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
  const host = guests.bridged('a firewall');
  const firewall = { revision: p.revision, enabled: p.enabled, rules: p.rules };
  await host.ensure();
  await host.nft(FIREWALL_TABLE + firewallScript(guests.tap(p.instance_id), firewall));
  instance.firewall = firewall;
  guests.save();
  return { revision: p.revision };
}
