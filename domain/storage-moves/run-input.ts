import type { StorageBackend } from '../hypervisors.js';
import type { MoveRunInput } from '../moves/run-input.js';

/** What a storage move's run is given by the service that requested it (services/storage-moves/record.ts). */
export interface MoveInstanceStorageInput extends MoveRunInput {
  readonly moveId: string;
  readonly hypervisorId: string;
  readonly from: StorageBackend;
  readonly to: StorageBackend;
  /** Whether the guest ran when the move was requested: a cold move stops it and starts it after. */
  readonly guestRunning: boolean;
  /** The disks that move: `root`, `volume-<uuid>`. */
  readonly disks: readonly string[];
  readonly retainMs: number;
}
