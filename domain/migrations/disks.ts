// The disks a migration moves, by the names its tasks and transfer tokens give them: the
// instance's root disk, and each of the customer's volumes attached to it.

export const ROOT_DISK = 'root';

const VOLUME_PREFIX = 'volume-';

/** A volume's disk in a migration's tasks and tokens. */
export const volumeDisk = (volumeId: string) => `${VOLUME_PREFIX}${volumeId}`;

/** The volume a disk name stands for; undefined for the root disk. */
export const volumeOfDisk = (disk: string): string | undefined =>
  disk.startsWith(VOLUME_PREFIX) ? disk.slice(VOLUME_PREFIX.length) : undefined;

/** What a task's `disk` may say: `root`, or `volume-` and the volume's id. */
export const DISK_NAME = /^(root|volume-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
