import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
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

/** Whether the installed QEMU is at least `major.minor`. */
function qemuAtLeast(major: number, minor: number): boolean {
  const version = spawnSync('qemu-system-x86_64', ['--version'], { encoding: 'utf8' });
  const match = /version (\d+)\.(\d+)/.exec(version.stdout ?? '');
  if (version.status !== 0 || !match) return false;
  const [found, foundMinor] = [Number(match[1]), Number(match[2])];
  return found > major || (found === major && foundMinor >= minor);
}

/**
 * Whether this QEMU moves a guest live the way the driver does it: the target's disk exported with
 * `block-export-add` (5.2) and mirrored into with `copy-mode: write-blocking` (3.0).
 */
export const liveMigrationWorks = (): boolean => qemuAtLeast(5, 2);

/**
 * Whether this QEMU grows a running guest the way the driver does it (guests/resize.ts): vCPUs by
 * `device_add` into the slots `query-hotpluggable-cpus` names (2.7), the size read back with
 * `query-memory-size-summary` (2.11).
 */
export const hotResizeWorks = (): boolean => qemuAtLeast(2, 11);
