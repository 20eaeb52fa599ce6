import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import type { GuestAddresses } from '../../../../domain/agent-tasks.js';
import { type HotplugCeiling, roomOfBoot } from '../../../../domain/instances/hot-resize.js';
import type { GuestImage } from '../artifacts/image-store.js';
import { type SlottedVolume, volumeArguments } from '../disks/volume-slots.js';
import { type GuestNetwork, userNetdev } from '../network/guest-network.js';
import { privateNicArguments, type TappedNic } from '../network/private-nics.js';
import { type Accelerator, machineArguments } from './accelerator.js';
import { freePort, guestFiles } from './guest-process.js';
import { growthKernelArguments, type HotAdded, sizeArguments } from './room-to-grow.js';

// How a guest's QEMU is started: the device set and boot of its command line, the same on a live
// migration's target; its process once started is guest-process.ts's.

/** What a guest boots: its image's kernel, that kernel's rescue system, or the ISO in its drive. */
export type BootSource = 'disk' | 'rescue' | 'cdrom';

export interface GuestShape {
  readonly name: string;
  /** Its size at boot: what it has less what was added to it while it ran (`hotAdded`). */
  readonly cpu_cores: number;
  readonly memory_mb: number;
  /** The most it may grow to while it runs; none: booted without room (room-to-grow.ts). */
  readonly ceiling?: HotplugCeiling;
  /** The vCPUs and memory added to it while it ran: a migration's target starts with them. */
  readonly hotAdded?: HotAdded;
  readonly image: GuestImage;
  readonly mac: string;
  readonly network: GuestNetwork;
  readonly addresses: GuestAddresses | undefined;
  /** Whether the guest's port 22 is forwarded from the host's loopback (AGENT_QEMU_SSH_FORWARD). */
  readonly sshForward: boolean;
  /** With the bridged network: the tap QEMU opens for the NIC (network/host-network.ts plugs it in). */
  readonly tap?: string;
  /** With the bridged network: the private NICs it boots with, in their slots (network/private-nics.ts). */
  readonly privateNics?: readonly TappedNic[];
  /** The customer's volumes it boots with, in their slots (disks/volume-slots.ts). */
  readonly volumes?: readonly SlottedVolume[];
  /** The ISO in its CD-ROM drive, a file of its library; none: the drive is empty. */
  readonly cdrom?: string;
  /** What it boots; its image's kernel unless said. */
  readonly boot?: BootSource;
}

/**
 * How the guest starts: the image's kernel directly (its own line or its rescue line), or the BIOS
 * from its CD-ROM, or, for an imported image, the BIOS from its disk (its own bootloader).
 */
function bootArguments(guest: GuestShape): string[] {
  const { image } = guest;
  if (guest.boot === 'cdrom') return ['-boot', 'order=d'];
  if (image.boot === 'firmware') return ['-boot', 'order=c'];
  const cmdline = guest.boot === 'rescue' && image.rescueCmdline ? image.rescueCmdline : image.cmdline;
  return [
    '-kernel',
    image.kernel,
    '-initrd',
    image.initrd,
    '-append',
    cmdline + growthKernelArguments(guest, guest.ceiling),
  ];
}

/** The CD-ROM drive every guest has (an AHCI port of q35), empty or holding an ISO read-only. */
function cdromArguments(guest: GuestShape): string[] {
  const medium = guest.cdrom ? `,file=${guest.cdrom},format=raw` : '';
  return [
    '-drive',
    `if=none,id=cd0,media=cdrom,readonly=on${medium}`,
    '-device',
    'ide-cd,id=cdrom,drive=cd0,bus=ide.0',
  ];
}

/** The `-netdev` of the guest's NIC, none when its cable is unplugged. */
function netdev(guest: GuestShape, sshPort: number | undefined): string[] {
  if (guest.network === 'user') return ['-netdev', userNetdev(guest.addresses, sshPort)];
  if (guest.network === 'bridged' && guest.tap)
    return ['-netdev', `tap,id=net0,ifname=${guest.tap},script=no,downscript=no`];
  return [];
}

/** The room a boot of this shape gives (domain/instances/hot-resize.ts roomOfBoot). */
export const bootRoom = (guest: GuestShape): HotplugCeiling | undefined =>
  // A bootloader of the guest's own (an ISO's, an imported disk's) passes no kernel arguments for the room.
  roomOfBoot(
    guest.ceiling,
    guest.memory_mb,
    guest.boot === 'cdrom' || guest.image.boot === 'firmware' ? 'cdrom' : 'kernel',
  );

/** The QEMU command line of a guest; the target of a live migration must use the very same one. */
function commandLine(dir: string, guest: GuestShape, accel: Accelerator, sshPort?: number): string[] {
  const files = guestFiles(dir);
  return [
    '-name',
    guest.name,
    ...machineArguments(accel),
    ...sizeArguments(guest, bootRoom(guest), guest.hotAdded),
    '-nodefaults',
    '-display',
    'none',
    // A guest that powers off or panics ends its process: the power state is the process.
    '-no-reboot',
    ...bootArguments(guest),
    '-blockdev',
    `driver=qcow2,node-name=root,file.driver=file,file.filename=${files.disk}`,
    '-device',
    'virtio-blk-pci,drive=root,id=root-disk',
    // The cloud-init seed, read-only, the guest's second disk: a guest made before seeds has none.
    ...(existsSync(files.seed)
      ? [
          '-blockdev',
          `driver=raw,node-name=seed,read-only=on,file.driver=file,file.filename=${files.seed}`,
          '-device',
          'virtio-blk-pci,drive=seed,id=seed-disk',
        ]
      : []),
    ...netdev(guest, sshPort),
    '-device',
    `virtio-net-pci,id=nic0,mac=${guest.mac}${guest.network === 'none' ? '' : ',netdev=net0'}`,
    '-device',
    'virtio-serial-pci,id=guest-serial',
    '-chardev',
    `socket,id=guest-channel,path=${files.channel},server=on,wait=off`,
    '-device',
    'virtserialport,bus=guest-serial.0,chardev=guest-channel,name=org.cloudsvc.guest',
    '-chardev',
    `socket,id=qmp,path=${files.qmp},server=on,wait=off`,
    '-mon',
    'chardev=qmp,mode=control',
    '-chardev',
    `socket,id=console,path=${files.consoleSocket},server=on,wait=off,logfile=${files.console},logappend=on`,
    '-serial',
    'chardev:console',
    ...(existsSync(files.rootHash)
      ? ['-fw_cfg', `name=opt/org.cloudsvc/root-hash,file=${files.rootHash}`]
      : []),
    ...(existsSync(files.rootReset)
      ? ['-fw_cfg', `name=opt/org.cloudsvc/root-reset,file=${files.rootReset}`]
      : []),
    ...(guest.tap ? privateNicArguments(guest.privateNics ?? []) : []),
    ...volumeArguments(guest.volumes ?? []),
    ...cdromArguments(guest),
    '-pidfile',
    files.pid,
    // Detached from the agent: the guest lives on when its agent dies or restarts.
    '-daemonize',
  ];
}

/**
 * Starts the guest's QEMU, detached; `incoming` makes it wait for a live migration instead of
 * booting, with no listener yet: the migration sets its TLS and then listens (`migrate-incoming`,
 * migration/target-definition.ts), so no plain connection is ever taken.
 */
export async function launchGuest(
  dir: string,
  guest: GuestShape,
  accel: Accelerator,
  incoming = false,
): Promise<void> {
  const files = guestFiles(dir);
  rmSync(files.qmp, { force: true });
  rmSync(files.consoleSocket, { force: true });
  rmSync(files.channel, { force: true });
  rmSync(files.sshPort, { force: true });
  const sshPort = guest.sshForward && guest.network === 'user' ? await freePort() : undefined;
  const args = commandLine(dir, guest, accel, sshPort);
  if (incoming) args.push('-incoming', 'defer');
  const child = spawn('qemu-system-x86_64', args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // With -daemonize the first process exits once the guest is set up, 0 when it was.
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  if (code !== 0) throw new Error(`qemu-system-x86_64 exited with ${code}: ${stderr.trim()}`);
  if (sshPort !== undefined) writeFileSync(files.sshPort, `${sshPort}\n`);
}
