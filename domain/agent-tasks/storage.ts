import { z } from 'zod';
import { instanceId } from './shapes.js';

/** The instance's disks: its root disk grown. */
export const STORAGE_TASKS = {
  /**
   * Grows the instance's root disk to `size_mb` (a running guest sees the new size at once); a disk
   * already that big or bigger is left as it is. Never shrinks: the result is the size it has.
   */
  'disk.resize': {
    params: z.object({ instance_id: instanceId, size_mb: z.number().int().positive() }),
    result: z.object({ size_mb: z.number().int().positive() }),
  },
} as const;
