import type { StorageBackend } from '../hypervisors.js';
import type { MigrationStrategy } from '../migrations/states.js';
import type { OperationContext } from '../operation-context.js';

/** What a storage move's run is given by the service that requested it (services/storage-moves/request.ts). */
export interface MoveInstanceStorageInput {
  readonly moveId: string;
  readonly operation: OperationContext;
  readonly hypervisorId: string;
  readonly from: StorageBackend;
  readonly to: StorageBackend;
  readonly strategy: MigrationStrategy;
  /** Whether the guest ran when the move was requested: a cold move stops it and starts it after. */
  readonly guestRunning: boolean;
  /** The disks that move: `root`, `volume-<uuid>`. */
  readonly disks: readonly string[];
  readonly leaseTtlMs: number;
  readonly retainMs: number;
}
