import { patched } from '@temporalio/workflow';
import type { MoveInstanceStorageInput } from '../../domain/storage-moves/run-input.js';
import {
  mayRecoverStorageMove,
  mayUndoStorageMove,
  type StorageMoveState,
} from '../../domain/storage-moves/states.js';
import type { GuestAt } from '../lib/guest-power.js';
import { installMoveControls } from '../lib/moves/controls.js';
import { MoveRun, type StateChange } from '../lib/moves/run.js';
import { PATCHES } from '../lib/patches.js';
import { bookkeeping } from '../lib/steps.js';
import { storageMoveControls } from './definitions.js';

/** The moved instance's guest, on the one hypervisor a storage move runs on. */
export const guestOfMove = ({ hypervisorId, operation }: MoveInstanceStorageInput): GuestAt => ({
  hypervisorId,
  instanceId: operation.instanceId,
  correlationId: operation.correlationId,
  timing: operation.timing,
});

/** What one storage move's run knows while it runs: a move's run, written through the storage move's bookkeeping. */
export class StorageMoveRun extends MoveRun<StorageMoveState> {
  readonly books = bookkeeping();

  constructor(readonly input: MoveInstanceStorageInput) {
    super({ label: 'Storage move state' });
  }

  /** The run's answers to the panel, asked against its own state with the switch as its point of no return. */
  installControls(): void {
    installMoveControls(this, storageMoveControls, {
      mayUndo: mayUndoStorageMove,
      mayRecover: mayRecoverStorageMove,
    });
  }

  protected record(state: StorageMoveState, change: StateChange): Promise<void> {
    return this.books.recordStorageMoveState({ moveId: this.input.moveId, state, ...change });
  }

  /** A storage move's steps report nothing today; a finding would be a history line of its own. */
  annotate(state: StorageMoveState, detail: Record<string, unknown>): Promise<void> {
    return this.books.recordStorageMoveState({ moveId: this.input.moveId, state, detail });
  }

  renewLease(ttlMs: number): Promise<boolean> {
    return this.books.renewStorageMoveLease({ moveId: this.input.moveId, ttlMs });
  }

  /** Runs begun before a lost lease was reported once failed on it at every step until the commit. */
  protected override lossStopsAgain(): boolean {
    return !patched(PATCHES.storageMoveLeaseLossReportedOnce.id);
  }
}
