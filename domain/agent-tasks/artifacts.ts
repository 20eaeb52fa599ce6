import { z } from 'zod';
import { artifactFacts, artifactId, instanceId, powerState } from './shapes.js';

/**
 * A restore's id (its operation's): the restored disk is written beside the current one under it,
 * so a task delivered twice writes it once, and the swap, revert and release name the same pair.
 */
const restoreId = z.string().uuid();

/** Backups, snapshots, and the restore of either: the disk written beside the current one, then swapped. */
export const ARTIFACT_TASKS = {
  /** A copy of the instance's disk into the location's backup store; the guest keeps running. */
  'backup.create': {
    params: z.object({ instance_id: instanceId, backup_id: artifactId }),
    result: artifactFacts,
  },
  /** Reads the backup back from the store: its size and the checksum of what is really there. */
  'backup.verify': {
    params: z.object({ instance_id: instanceId, backup_id: artifactId }),
    result: artifactFacts,
  },
  /** Writes the backup's content beside the instance's current disk (see `disk.swap`). */
  'backup.restore': {
    params: z.object({ instance_id: instanceId, backup_id: artifactId, restore_id: restoreId }),
    result: artifactFacts,
  },
  'backup.delete': {
    params: z.object({ instance_id: instanceId, backup_id: artifactId }),
    result: z.object({ deleted: z.boolean() }),
  },
  /** A point-in-time image kept beside the disk on the hypervisor. */
  'snapshot.create': {
    params: z.object({ instance_id: instanceId, snapshot_id: artifactId }),
    result: artifactFacts,
  },
  /** Writes the snapshot's content beside the instance's current disk (see `disk.swap`). */
  'snapshot.restore': {
    params: z.object({ instance_id: instanceId, snapshot_id: artifactId, restore_id: restoreId }),
    result: artifactFacts,
  },
  'snapshot.delete': {
    params: z.object({ instance_id: instanceId, snapshot_id: artifactId }),
    result: z.object({ deleted: z.boolean() }),
  },
  /**
   * The restored disk takes the current one's place, which is kept beside it until `disk.release`;
   * a running guest is restarted on it, a stopped one stays stopped.
   */
  'disk.swap': {
    params: z.object({ instance_id: instanceId, restore_id: restoreId }),
    result: z.object({ power_state: powerState, checksum: artifactFacts.shape.checksum }),
  },
  /** Undoes a restore: the disk kept aside is put back if it was swapped out, the restored one dropped. */
  'disk.revert': {
    params: z.object({ instance_id: instanceId, restore_id: restoreId }),
    result: z.object({ reverted: z.boolean() }),
  },
  /** Ends a restore that succeeded: the disk kept aside is dropped. */
  'disk.release': {
    params: z.object({ instance_id: instanceId, restore_id: restoreId }),
    result: z.object({ released: z.boolean() }),
  },
} as const;
