import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DriverFailure } from '../../driver.js';

/** Where scripts/images/ build the images, and where an agent looks for them unless told otherwise. */
export const defaultImageStore = () =>
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'cloudsvc', 'images');

/** The kernel line of an image with no `cmdline` of its own: a root filesystem the initramfs mounts. */
const DEFAULT_CMDLINE = 'console=ttyS0 quiet panic=-1';

/** What every image has: its code (or an imported version's id) and its disk. */
interface ImageDisk {
  readonly code: string;
  /** Each instance's disk is a standalone copy of it, grown to the plan's size. */
  readonly disk: string;
}

/** An image booted through its kernel and initramfs, directly (no bootloader): the images we build. */
export interface KernelImage extends ImageDisk {
  readonly boot: 'kernel';
  readonly kernel: string;
  readonly initrd: string;
  readonly cmdline: string;
  /** The kernel line of its rescue system (the same kernel and initramfs), when it has one. */
  readonly rescueCmdline?: string;
}

/** An imported image (artifacts/image-imports.ts): a whole bootable disk that the guest's firmware boots. */
export interface FirmwareImage extends ImageDisk {
  readonly boot: 'firmware';
}

/** What a guest boots. */
export type GuestImage = KernelImage | FirmwareImage;

/**
 * The hypervisor's images: a directory with one directory per image, named by the panel's image
 * code, holding `vmlinuz`, `initrd.img`, `disk.qcow2` and, optionally, `cmdline` (the kernel's
 * arguments) and `rescue-cmdline` (its rescue system's); or an imported version's, named by its id,
 * holding `disk.qcow2` alone, booted by the guest's firmware. Read at each use, so an image put in place is found without restarting the agent.
 */
export class ImageStore {
  constructor(readonly dir: string) {}

  find(code: string): GuestImage | undefined {
    // A code is a directory name here, never a path.
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(code)) return undefined;
    const dir = join(this.dir, code);
    const disk = join(dir, 'disk.qcow2');
    if (!existsSync(disk)) return undefined;
    const image = { code, kernel: join(dir, 'vmlinuz'), initrd: join(dir, 'initrd.img'), disk };
    if (![image.kernel, image.initrd].some((path) => existsSync(path)))
      return { code, disk, boot: 'firmware' };
    if (![image.kernel, image.initrd].every((path) => existsSync(path))) return undefined;
    const cmdlineFile = join(dir, 'cmdline');
    const cmdline = existsSync(cmdlineFile) ? readFileSync(cmdlineFile, 'utf8').trim() : DEFAULT_CMDLINE;
    const rescueFile = join(dir, 'rescue-cmdline');
    const rescue = existsSync(rescueFile) ? { rescueCmdline: readFileSync(rescueFile, 'utf8').trim() } : {};
    return { ...image, boot: 'kernel', cmdline, ...rescue };
  }

  /** The image, or the task's failure: a hypervisor without it cannot make or move such a guest. */
  get(code: string): GuestImage {
    const image = this.find(code);
    if (!image)
      throw new DriverFailure('IMAGE_NOT_AVAILABLE', `the image ${code} is not on this hypervisor`, false);
    return image;
  }

  /** A kernel of the store's, to probe the accelerator with; none when every image here boots by firmware. */
  anyKernel(): string | undefined {
    for (const code of this.codes()) {
      const image = this.find(code);
      if (image?.boot === 'kernel') return image.kernel;
    }
    return undefined;
  }

  /** The codes of the images here, sorted. */
  codes(): string[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((code) => this.find(code) !== undefined)
      .sort();
  }
}
