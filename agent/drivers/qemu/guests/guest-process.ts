import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { GuestAddresses } from '../../../../domain/agent-tasks.js';
import type { GuestImage } from '../artifacts/image-store.js';
import { type SlottedVolume, volumeArguments } from '../disks/volume-slots.js';
import { type GuestNetwork, userNetdev } from '../network/guest-network.js';
import { privateNicArguments, type TappedNic } from '../network/private-nics.js';
import { type Accelerator, machineArguments } from './accelerator.js';
import { Qmp } from './qmp.js';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The files of one guest, all in its directory: what a restarted agent finds it by. */
export const guestFiles = (dir: string) => ({
  disk: join(dir, 'disk.qcow2'),
  qmp: join(dir, 'qmp.sock'),
  pid: join(dir, 'qemu.pid'),
  console: join(dir, 'console.log'),
  /** The serial console itself, for the agent to relay (agent/console/relay.ts); its output is also in console.log. */
  consoleSocket: join(dir, 'console.sock'),
  /** The guest's side of it is the virtio-serial port org.cloudsvc.guest (see guest-channel.ts). */
  channel: join(dir, 'guest.sock'),
  /** The hash of a new or rebuilt guest's first root password, read by its first boot (fw_cfg). */
  rootHash: join(dir, 'root-hash'),
  /**
   * A password reset made while the guest was stopped, `<id> <hash>`, read by its next boot
   * (fw_cfg); there until the guest has said it applied it.
   */
  rootReset: join(dir, 'root-reset'),
  /** The cloud-init NoCloud seed (guest-seed.ts), attached read-only at each boot. */
  seed: join(dir, 'seed.iso'),
  /** The host's loopback port forwarded to the guest's port 22, when the agent forwards one. */
  sshPort: join(dir, 'ssh-port'),
  /** The instance's ISO library: one file per ISO, by its id. */
  iso: (isoId: string) => join(dir, 'isos', `${isoId}.iso`),
});

/** What a guest boots: its image's kernel, that kernel's rescue system, or the ISO in its drive. */
export type BootSource = 'disk' | 'rescue' | 'cdrom';

export interface GuestShape {
  readonly name: string;
  readonly cpu_cores: number;
  readonly memory_mb: number;
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

/** How the guest starts: the image's kernel directly (its own line or its rescue line), or the BIOS from its CD-ROM. */
function bootArguments(guest: GuestShape): string[] {
  const { image } = guest;
  if (guest.boot === 'cdrom') return ['-boot', 'order=d'];
  const cmdline = guest.boot === 'rescue' && image.rescueCmdline ? image.rescueCmdline : image.cmdline;
  return ['-kernel', image.kernel, '-initrd', image.initrd, '-append', cmdline];
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

/** The QEMU command line of a guest; the target of a live migration must use the very same one. */
function commandLine(dir: string, guest: GuestShape, accel: Accelerator, sshPort?: number): string[] {
  const files = guestFiles(dir);
  return [
    '-name',
    guest.name,
    ...machineArguments(accel),
    '-smp',
    String(guest.cpu_cores),
    '-m',
    String(guest.memory_mb),
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

/** Starts the guest's QEMU, detached; `incoming` makes it wait for a live migration instead of booting. */
export async function launchGuest(
  dir: string,
  guest: GuestShape,
  accel: Accelerator,
  incoming?: { host: string; port: number },
): Promise<void> {
  const files = guestFiles(dir);
  rmSync(files.qmp, { force: true });
  rmSync(files.consoleSocket, { force: true });
  rmSync(files.channel, { force: true });
  rmSync(files.sshPort, { force: true });
  const sshPort = guest.sshForward && guest.network === 'user' ? await freePort() : undefined;
  const args = commandLine(dir, guest, accel, sshPort);
  if (incoming) args.push('-incoming', `tcp:${incoming.host}:${incoming.port}`);
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

/** The guest's QEMU process id, if it is alive (and the pid file is not an old one reused). */
export function guestPid(dir: string): number | undefined {
  // QEMU removes its pid file as it exits: read it once, and a file gone meanwhile is a guest gone.
  let text: string;
  try {
    text = readFileSync(guestFiles(dir).pid, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes(guestFiles(dir).qmp) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export const guestAlive = (dir: string) => guestPid(dir) !== undefined;

/** Waits until the guest's process is gone; false if it still runs after `timeoutMs`. */
export async function waitForExit(dir: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (guestAlive(dir)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/** The QMP run status (`running`, `inmigrate`, `postmigrate`, `paused`, …), or undefined when no guest runs. */
export async function runStatus(dir: string): Promise<string | undefined> {
  if (!guestAlive(dir)) return undefined;
  try {
    return await Qmp.with(guestFiles(dir).qmp, async (qmp) => {
      const status = await qmp.execute<{ status: string }>('query-status');
      return status.status;
    });
  } catch {
    return guestAlive(dir) ? 'unreachable' : undefined;
  }
}

/**
 * Stops the guest: the ACPI power button first so that it shuts down cleanly (its disk synced),
 * then, if it has not within `graceMs`, QEMU is told to quit; a QEMU that does not answer is killed.
 */
export async function stopGuest(dir: string, graceMs: number): Promise<void> {
  if (!guestAlive(dir)) return;
  const qmpPath = guestFiles(dir).qmp;
  if (graceMs > 0) {
    await Qmp.with(qmpPath, (qmp) => qmp.execute('system_powerdown')).catch(() => undefined);
    if (await waitForExit(dir, graceMs)) return;
  }
  await killGuest(dir);
}

/** Ends the guest's process at once (a power cut). */
export async function killGuest(dir: string): Promise<void> {
  if (!guestAlive(dir)) return;
  await Qmp.with(guestFiles(dir).qmp, (qmp) => qmp.execute('quit')).catch(() => undefined);
  if (await waitForExit(dir, 5000)) return;
  const pid = guestPid(dir);
  if (pid) process.kill(pid, 'SIGKILL');
  await waitForExit(dir, 5000);
}

/** A TCP port nothing listens on now, for QEMU to listen on next. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Whether this QEMU moves a guest live the way the driver does it: the target's disk exported with
 * `block-export-add` (5.2) and mirrored into with `copy-mode: write-blocking` (3.0).
 */
export function liveMigrationWorks(): boolean {
  const version = spawnSync('qemu-system-x86_64', ['--version'], { encoding: 'utf8' });
  const match = /version (\d+)\.(\d+)/.exec(version.stdout ?? '');
  if (version.status !== 0 || !match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 5 || (major === 5 && minor >= 2);
}
