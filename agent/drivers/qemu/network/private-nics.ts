import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import { PRIVATE_NICS_PER_INSTANCE } from '../../../../domain/networks/private-networks.js';
import { DriverFailure } from '../../driver.js';
import { Qmp } from '../guests/qmp.js';
import type { PluggedNic } from '../guests/state.js';
import type { HostNetwork } from './host-network.js';

type PrivateNic = AgentTaskParams<'network.apply'>['nics'][number];

/** A private NIC with the tap that backs it on this host. */
export type TappedNic = PluggedNic & { readonly tap: string };

/** How long a guest gets to let go of a NIC taken out (ACPI eject), and to find one put in. */
const UNPLUG_WAIT_MS = 15_000;

export const PRIVATE_BRIDGE_PREFIX = 'pn';

/**
 * The bridge of a private network in the namespace (at most 15 characters): the same name for
 * every agent sharing the namespace, so their guests on one network meet on one bridge.
 */
export const privateBridge = (networkId: string) =>
  `${PRIVATE_BRIDGE_PREFIX}${createHash('sha256').update(networkId).digest('hex').slice(0, 12)}`;

const ids = (slot: number) => ({ port: `rp${slot}`, netdev: `pnet${slot}`, device: `pnic${slot}` });

/**
 * The empty PCIe root ports a running guest's private NICs are plugged into (one per slot, there
 * from its boot on, so the device set is fixed by the backend alone), and the NICs it boots with,
 * each in its slot's port. A live migration's target boots with the same and so matches.
 */
export function privateNicArguments(plugged: readonly TappedNic[]): string[] {
  const args: string[] = [];
  for (let slot = 1; slot <= PRIVATE_NICS_PER_INSTANCE; slot++)
    args.push('-device', `pcie-root-port,id=${ids(slot).port},chassis=${slot}`);
  for (const nic of plugged) {
    const { port, netdev, device } = ids(nic.slot);
    args.push('-netdev', `tap,id=${netdev},ifname=${nic.tap},script=no,downscript=no`);
    args.push('-device', `virtio-net-pci,id=${device},mac=${nic.mac},netdev=${netdev},bus=${port}`);
  }
  return args;
}

const same = (a: PluggedNic, b: PrivateNic) => a.mac === b.mac && a.network_id === b.network_id;

/** The NICs to take out (no longer wanted) and to put in (each with the lowest slot left free). */
export function privateNicChanges(plugged: readonly PluggedNic[], wanted: readonly PrivateNic[]) {
  const kept = plugged.filter((p) => wanted.some((w) => same(p, w)));
  const unplug = plugged.filter((p) => !kept.includes(p));
  const taken = new Set(kept.map((p) => p.slot));
  const plug: PluggedNic[] = [];
  for (const nic of wanted.filter((w) => !plugged.some((p) => same(p, w)))) {
    let slot = 1;
    while (taken.has(slot)) slot++;
    taken.add(slot);
    plug.push({ slot, mac: nic.mac, network_id: nic.network_id });
  }
  return { unplug, plug };
}

/**
 * A running guest's private NICs, hot-plugged over QMP: a NIC taken out is ejected (the guest lets
 * go of it) and its tap closed; a NIC put in gets its tap, opened by QEMU and moved onto its
 * network's bridge, before the guest sees the device. A slot holding a device the state does not
 * know (a task cut off after the plug) is emptied first, so a repeated task converges.
 */
export class GuestNicSlots {
  constructor(
    private readonly host: HostNetwork,
    private readonly qmpPath: string,
    private readonly tapOf: (slot: number) => string,
  ) {}

  async unplug(slot: number): Promise<void> {
    const { device, netdev } = ids(slot);
    await Qmp.with(this.qmpPath, async (qmp) => {
      if (await present(qmp, device)) {
        await qmp.execute('device_del', { id: device }).catch(() => undefined);
        const deadline = Date.now() + UNPLUG_WAIT_MS;
        while (await present(qmp, device)) {
          if (Date.now() > deadline)
            throw new DriverFailure(
              'GUEST_NIC_NOT_RELEASED',
              `the guest did not let go of its private NIC in slot ${slot}`,
              true,
            );
          await sleep(250);
        }
      }
      await qmp.execute('netdev_del', { id: netdev }).catch(() => undefined);
    });
  }

  async plug(nic: PluggedNic): Promise<void> {
    await this.unplug(nic.slot);
    const { port, netdev, device } = ids(nic.slot);
    const tap = this.tapOf(nic.slot);
    await Qmp.with(this.qmpPath, (qmp) =>
      qmp.execute('netdev_add', { type: 'tap', id: netdev, ifname: tap, script: 'no', downscript: 'no' }),
    );
    await this.host.plug(tap, privateBridge(nic.network_id));
    await Qmp.with(this.qmpPath, (qmp) =>
      qmp.execute('device_add', { driver: 'virtio-net-pci', id: device, mac: nic.mac, netdev, bus: port }),
    );
  }
}

async function present(qmp: Qmp, device: string): Promise<boolean> {
  const children = await qmp.execute<{ name: string }[]>('qom-list', { path: '/machine/peripheral' });
  return children.some((c) => c.name === device);
}
