import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { VOLUMES_PER_INSTANCE } from '../../../../domain/volumes.js';
import { DriverFailure } from '../../driver.js';
import { Qmp } from '../guests/qmp.js';
import type { QemuState } from '../guests/state.js';
import { currentNode } from './block-nodes.js';

/** A volume in a guest: the slot it sits in, its qcow2 file, and the serial the guest sees. */
export interface SlottedVolume {
  readonly slot: number;
  readonly path: string;
  readonly serial: string;
}

/** How long a guest gets to let go of a disk taken out (ACPI eject). */
const UNPLUG_WAIT_MS = 15_000;

// The private NICs' root ports take chassis 1 to 8 (network/private-nics.ts); the volumes' follow.
const CHASSIS_BASE = 8;

const ids = (slot: number) => ({ port: `vp${slot}`, node: `vol${slot}`, device: `vol${slot}` });

/** The block node of the volume in `slot` (what a live move mirrors, and the target exports). */
export const volumeNode = (slot: number) => ids(slot).node;

/** What virtio-blk carries as the disk's serial (20 bytes at most): the volume id's start. */
export const volumeSerial = (volumeId: string) => volumeId.slice(0, 20);

/** A volume's qcow2 file on this host. */
export const volumeFile = (stateDir: string, volumeId: string) =>
  join(stateDir, 'volumes', `${volumeId}.qcow2`);

/** The volumes a guest boots with, in their slots. */
export function slottedVolumesOf(state: QemuState, stateDir: string, instanceId: string): SlottedVolume[] {
  return Object.entries(state.volumes ?? {})
    .filter(([, v]) => v.instance_id === instanceId && v.slot !== null)
    .map(([id, v]) => ({ slot: v.slot!, path: volumeFile(stateDir, id), serial: volumeSerial(id) }));
}

/**
 * Every guest's empty PCIe root ports for volumes (one per slot, there from its boot on, so the
 * device set does not depend on what is attached), and the volumes it boots with in theirs.
 */
export function volumeArguments(volumes: readonly SlottedVolume[]): string[] {
  const args: string[] = [];
  for (let slot = 1; slot <= VOLUMES_PER_INSTANCE; slot++)
    args.push('-device', `pcie-root-port,id=${ids(slot).port},chassis=${CHASSIS_BASE + slot}`);
  for (const volume of volumes) {
    const { port, node, device } = ids(volume.slot);
    args.push('-blockdev', `driver=qcow2,node-name=${node},file.driver=file,file.filename=${volume.path}`);
    args.push('-device', `virtio-blk-pci,id=${device},drive=${node},bus=${port},serial=${volume.serial}`);
  }
  return args;
}

async function present(qmp: Qmp, device: string): Promise<boolean> {
  const children = await qmp.execute<{ name: string }[]>('qom-list', { path: '/machine/peripheral' });
  return children.some((c) => c.name === device);
}

async function nodePresent(qmp: Qmp, node: string): Promise<boolean> {
  const nodes = await qmp.execute<{ 'node-name': string }[]>('query-named-block-nodes', { flat: true });
  return nodes.some((n) => n['node-name'] === node);
}

/**
 * Takes the disk in `slot` out of a running guest: ejected (the guest lets go of it), then its
 * block node closed. An empty slot: nothing to do.
 */
export async function unplugVolume(qmpPath: string, slot: number): Promise<void> {
  const { device, node } = ids(slot);
  await Qmp.with(qmpPath, async (qmp) => {
    // The node the disk is on now: another than `node` once a live storage move switched it.
    const attached = await currentNode(qmp, node);
    if (await present(qmp, device)) {
      await qmp.execute('device_del', { id: device }).catch(() => undefined);
      const deadline = Date.now() + UNPLUG_WAIT_MS;
      while (await present(qmp, device)) {
        if (Date.now() > deadline)
          throw new DriverFailure(
            'GUEST_DISK_NOT_RELEASED',
            `the guest did not let go of the disk in slot ${slot}`,
            true,
          );
        await sleep(250);
      }
    }
    for (const stale of new Set([attached, node]))
      if (await nodePresent(qmp, stale)) await qmp.execute('blockdev-del', { 'node-name': stale });
  });
}

/**
 * Puts the volume into a running guest's slot: its qcow2 file opened as a block node, then the
 * virtio disk added on the slot's port. A slot holding something (a task cut off half-way) is
 * emptied first, so a repeated task converges.
 */
export async function plugVolume(qmpPath: string, volume: SlottedVolume): Promise<void> {
  await unplugVolume(qmpPath, volume.slot);
  const { port, node, device } = ids(volume.slot);
  await Qmp.with(qmpPath, async (qmp) => {
    await qmp.execute('blockdev-add', {
      driver: 'qcow2',
      'node-name': node,
      file: { driver: 'file', filename: volume.path },
    });
    await qmp.execute('device_add', {
      driver: 'virtio-blk-pci',
      id: device,
      drive: node,
      bus: port,
      serial: volume.serial,
    });
  });
}

/** Grows the disk in `slot` under a running guest, which sees the new size at once. */
export async function growPluggedVolume(qmpPath: string, slot: number, sizeMb: number): Promise<void> {
  await Qmp.with(qmpPath, async (qmp) =>
    qmp.execute('block_resize', {
      'node-name': await currentNode(qmp, ids(slot).node),
      size: sizeMb * 1024 * 1024,
    }),
  );
}
