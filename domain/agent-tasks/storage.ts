import { z } from 'zod';
import { VOLUMES_PER_INSTANCE } from '../volumes.js';
import { instanceId } from './shapes.js';

const volumeId = z.string().uuid();
const sizeMb = z.number().int().positive();

/** The instance's disks: its root disk grown, and the customer's volumes made, attached and grown. */
export const STORAGE_TASKS = {
  /**
   * Grows the instance's root disk to `size_mb` (a running guest sees the new size at once); a disk
   * already that big or bigger is left as it is. Never shrinks: the result is the size it has.
   */
  'disk.resize': {
    params: z.object({ instance_id: instanceId, size_mb: sizeMb }),
    result: z.object({ size_mb: sizeMb }),
  },
  /**
   * The volume's disk exists on this hypervisor with at least `size_mb`: made empty, or grown to it
   * (a grow recorded while it was on no instance). The result is the size it has.
   */
  'volume.create': {
    params: z.object({ volume_id: volumeId, size_mb: sizeMb }),
    result: z.object({ size_mb: sizeMb }),
  },
  /**
   * The volume is on the instance: hot-plugged into a running guest, which sees a disk whose serial
   * is the volume id's first 20 characters; a stopped guest boots with it. Already there: nothing.
   */
  'volume.attach': {
    params: z.object({ instance_id: instanceId, volume_id: volumeId }),
    result: z.object({ slot: z.number().int().min(1).max(VOLUMES_PER_INSTANCE) }),
  },
  /** The volume is off the instance (a running guest lets go of it first); its disk is kept. */
  'volume.detach': {
    params: z.object({ instance_id: instanceId, volume_id: volumeId }),
    result: z.object({ detached: z.boolean() }),
  },
  /** Grows the volume's disk to `size_mb` (a guest it is on sees it at once); never shrinks. */
  'volume.resize': {
    params: z.object({ volume_id: volumeId, size_mb: sizeMb }),
    result: z.object({ size_mb: sizeMb }),
  },
  /** Removes the volume's disk from this hypervisor; refused while it is on an instance. */
  'volume.delete': {
    params: z.object({ volume_id: volumeId }),
    result: z.object({ deleted: z.boolean() }),
  },
} as const;
