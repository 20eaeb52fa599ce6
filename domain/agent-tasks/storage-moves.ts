import { z } from 'zod';
import { STORAGE_BACKENDS } from '../hypervisors.js';
import { DISK_NAME } from '../migrations/disks.js';
import { VOLUMES_PER_INSTANCE } from '../volumes.js';
import { instanceId } from './shapes.js';

/**
 * A storage move's tasks, all on the instance's own hypervisor (semantic: backends by name, never
 * paths). The old copy stays where it is until the cleanup after the retention window.
 */
const onMove = { move_id: z.string().uuid(), instance_id: instanceId };
const disk = z.string().max(64).regex(DISK_NAME);
const backend = z.enum(STORAGE_BACKENDS);
export const STORAGE_MOVE_TASKS = {
  /** Copy a disk to the other backend: live, a mirror kept in step with the running guest; cold, a copy. */
  'storage.copy': {
    params: z.object({ ...onMove, disk, from_backend: backend, to_backend: backend, live: z.boolean() }),
    result: z.object({ size_mb: z.number().int().nonnegative() }),
  },
  /** The copy is whole: live, the mirror is in step; cold, both copies hash the same. */
  'storage.verify': {
    params: z.object({ ...onMove, disk }),
    result: z.object({ checksum: z.string().min(1).max(128) }),
  },
  /** The guest (or its definition, stopped) uses the new copies from now on. */
  'storage.switch': {
    params: z.object({
      ...onMove,
      disks: z
        .array(disk)
        .min(1)
        .max(VOLUMES_PER_INSTANCE + 1),
      to_backend: backend,
      live: z.boolean(),
    }),
    result: z.object({ switched: z.boolean() }),
  },
  /** Undo of a copy before the switch: the mirror stopped, the new copy removed. */
  'storage.abort': {
    params: z.object({ ...onMove, disk }),
    result: z.object({ aborted: z.boolean() }),
  },
  /** An operator's decision after the switch: the guest back on the old copies. */
  'storage.revert': {
    params: z.object({
      ...onMove,
      disks: z
        .array(disk)
        .min(1)
        .max(VOLUMES_PER_INSTANCE + 1),
      from_backend: backend,
      live: z.boolean(),
    }),
    result: z.object({ reverted: z.boolean() }),
  },
  /** After the retention window: the old copy removed. */
  'storage.cleanup': {
    params: z.object({ ...onMove, disk, from_backend: backend }),
    result: z.object({ removed: z.boolean() }),
  },
} as const;
