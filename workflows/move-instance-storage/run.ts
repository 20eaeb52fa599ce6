import { CancellationScope, condition, setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { MoveInstanceStorageInput } from '../../domain/storage-moves/run-input.js';
import {
  mayRecoverStorageMove,
  mayUndoStorageMove,
  type StorageMoveState,
} from '../../domain/storage-moves/states.js';
import { businessFailure } from '../lib/failures.js';
import type { GuestAt } from '../lib/guest-power.js';
import { Saga } from '../lib/saga.js';
import { bookkeeping } from '../lib/steps.js';
import {
  recoverStorageMove,
  type StorageRecoveryRequest,
  type StorageUndoRequest,
  storageMoveState,
  undoStorageMove,
} from './definitions.js';

/** The moved instance's guest, on the one hypervisor a storage move runs on. */
export const guestOfMove = ({ hypervisorId, operation }: MoveInstanceStorageInput): GuestAt => ({
  hypervisorId,
  instanceId: operation.instanceId,
  correlationId: operation.correlationId,
  timing: operation.timing,
});

/**
 * What one storage move's run knows while it runs: its state (the authority its update validators
 * ask), an administrator's undo or recovery decision, the saga of its undos, and the scope of its
 * forward steps, which an undo cancels.
 */
export class StorageMoveRun {
  state: StorageMoveState = 'REQUESTED';
  committed = false;
  finished = false;
  leaseLost = false;
  undo: StorageUndoRequest | undefined;
  recovery: StorageRecoveryRequest | undefined;
  readonly saga = new Saga();
  readonly forward = new CancellationScope();
  readonly books = bookkeeping();

  constructor(readonly input: MoveInstanceStorageInput) {}

  installHandlers(): void {
    setHandler(storageMoveState, () => this.state);
    setHandler(
      undoStorageMove,
      (request) => {
        this.undo = request;
        this.forward.cancel();
        return { state: this.state };
      },
      {
        validator: (request) => {
          const verdict = mayUndoStorageMove(this.state, request.reason);
          if (!verdict.ok) throw businessFailure(verdict.code, verdict.detail);
        },
      },
    );
    setHandler(
      recoverStorageMove,
      (request) => {
        this.recovery = request;
        return { state: this.state };
      },
      {
        validator: (request) => {
          const verdict = mayRecoverStorageMove(
            { state: this.state, committed: this.committed },
            request.decision,
            request.reason,
          );
          if (!verdict.ok) throw businessFailure(verdict.code, verdict.detail);
        },
      },
    );
  }

  /** Enters `state`: shown, and written (a compare-and-set on the states allowed before it). */
  async enter(state: StorageMoveState, fields: Record<string, unknown> = {}): Promise<void> {
    this.state = state;
    setCurrentDetails(`**Storage move state:** ${state}`);
    await this.books.recordStorageMoveState({ moveId: this.input.moveId, state, ...fields });
  }

  /**
   * Renews the instance's lease every third of its lifetime until the commit releases it; a
   * renewal that finds it gone marks it lost, and the next step boundary fails on it.
   */
  async keepLease(): Promise<void> {
    const every = Math.max(1000, Math.floor(this.input.leaseTtlMs / 3));
    while (!this.finished && !this.committed) {
      if (await condition(() => this.finished || this.committed, every)) return;
      const held = await this.books.renewStorageMoveLease({
        moveId: this.input.moveId,
        ttlMs: this.input.leaseTtlMs,
      });
      if (!held) this.leaseLost = true;
    }
  }
}
