import { spawnSync } from 'node:child_process';
import { defaultGuestImageDir, type GuestImage, guestImage } from './images.js';

const hasCommand = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;

/** The guest image an agent started with `env` boots: AGENT_QEMU_IMAGE_DIR, or the default. */
export const guestImageDir = (env: NodeJS.ProcessEnv = process.env) =>
  env.AGENT_QEMU_IMAGE_DIR ?? defaultGuestImageDir();

export const configuredGuestImage = (env: NodeJS.ProcessEnv = process.env): GuestImage | undefined =>
  guestImage(guestImageDir(env));

/**
 * Why real guests cannot run on this machine, or undefined when they can: QEMU installed and the
 * guest image built (scripts/guest-image.sh). What the QEMU tests, the bench and `npm start` ask.
 */
export function qemuGuestsMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!hasCommand('qemu-system-x86_64') || !hasCommand('qemu-img'))
    return 'QEMU is not installed (apt-get install qemu-system-x86 qemu-utils busybox-static)';
  if (!configuredGuestImage(env))
    return `no guest image in ${guestImageDir(env)} (bash scripts/guest-image.sh)`;
  return undefined;
}
