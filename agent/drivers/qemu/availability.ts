import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { defaultImageStore, type GuestImage, ImageStore } from './artifacts/image-store.js';

const hasCommand = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
/** For commands without a version flag that exits 0: whether it runs at all. */
const installed = (command: string) => spawnSync(command, ['-V'], { stdio: 'ignore' }).error === undefined;

/** The fast guest the QEMU tests, the bench and the demo boot (scripts/images/busybox.sh). */
export const FAST_IMAGE = 'busybox';
/** The real OS the QEMU tests log in to (scripts/images/debian-12.sh). */
export const DEBIAN_IMAGE = 'debian-12';

/** The image store an agent started with `env` reads: AGENT_QEMU_IMAGE_STORE, or the default. */
export const imageStoreDir = (env: NodeJS.ProcessEnv = process.env) =>
  env.AGENT_QEMU_IMAGE_STORE ?? defaultImageStore();

export const configuredImage = (code: string, env: NodeJS.ProcessEnv = process.env): GuestImage | undefined =>
  new ImageStore(imageStoreDir(env)).find(code);

/** The kernel of an image we build (one that boots through its kernel), to probe the accelerator with. */
export function configuredKernel(code: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const image = configuredImage(code, env);
  return image?.boot === 'kernel' ? image.kernel : undefined;
}

/**
 * Why real guests cannot run on this machine, or undefined when they can: QEMU and genisoimage
 * installed and the fast image built. What the QEMU tests, the bench and `npm start` ask.
 */
export function qemuGuestsMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!hasCommand('qemu-system-x86_64') || !hasCommand('qemu-img') || !hasCommand('genisoimage'))
    return 'QEMU or genisoimage is not installed (apt-get install qemu-system-x86 qemu-utils genisoimage busybox-static)';
  if (!configuredImage(FAST_IMAGE, env))
    return `no ${FAST_IMAGE} image in ${imageStoreDir(env)} (bash scripts/images/busybox.sh)`;
  return undefined;
}

/** Why the Debian guest cannot be tried here, or undefined: real guests, its image, an SSH client. */
export function debianGuestMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const missing = qemuGuestsMissing(env);
  if (missing) return missing;
  if (!configuredImage(DEBIAN_IMAGE, env))
    return `no ${DEBIAN_IMAGE} image in ${imageStoreDir(env)} (bash scripts/images/debian-12.sh)`;
  if (!installed('ssh') || !installed('ssh-keygen')) return 'no SSH client (apt-get install openssh-client)';
  return undefined;
}

/** Why guests cannot have the bridged network here, or undefined: root, a tun device, `ip` and `nft`. */
export function bridgedNetworkMissing(): string | undefined {
  if (process.getuid?.() !== 0)
    return 'the bridged network makes namespaces, bridges and taps: it needs root';
  if (!existsSync('/dev/net/tun')) return 'no /dev/net/tun';
  if (!installed('ip') || !installed('nft'))
    return 'iproute2 or nftables is not installed (apt-get install iproute2 nftables)';
  return undefined;
}
