import {
  ApplicationFailure,
  CancellationScope,
  setCurrentDetails,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { RecoveryDecision, SharedMoveState } from '../../../domain/moves/states.js';
import { businessFailure } from '../failures.js';
import { Saga } from '../saga.js';

/** An administrator's cancel or rollback (workflows/lib/moves/controls.ts). */
export interface UndoRequest {
  readonly kind: 'cancel' | 'rollback';
  readonly reason: string;
  readonly actor: string;
}

/** An operator's decision on a move in RECOVERY_REQUIRED. */
export interface RecoveryRequest {
  readonly decision: RecoveryDecision;
  readonly reason: string;
  readonly actor: string;
}

/** One step of a move's runbook: the state it runs in, and what it found out (added to that state's history). */
export interface MoveStep<S extends string> {
  readonly state: S;
  readonly run: () => Promise<Record<string, unknown> | undefined>;
}

/** A check of a step that failed: the move's failure code, as an agent's would be. */
export const stepFailure = (type: string, message: string) =>
  ApplicationFailure.create({ type, message, nonRetryable: true });

/** What a state's write carries besides the state: its history line's detail and the move's columns. */
export interface StateChange {
  readonly detail?: Record<string, unknown>;
  readonly failedStep?: string;
  readonly failure?: Record<string, unknown>;
  readonly recovery?: Record<string, unknown>;
}

/**
 * `lost` when a renewal found the lease no longer the move's: the next step boundary before the
 * commit fails on it and makes it `reported`. Reported once: an operator's recovery decision,
 * taken knowing it, is not refused again for the same loss, so a lost lease never leaves the old
 * side's copy as the only way out (it may no longer be the authoritative one).
 */
export type LeaseHold = 'held' | 'lost' | 'reported';

/**
 * What one move's run knows while it runs, whatever its kind: its state (the authority its update
 * validators ask), what an administrator asked of it, the lease, the saga of its undos and the
 * scope of its forward steps, which an undo cancels. A kind says how its state is written and its
 * lease renewed (its own bookkeeping activities, whose names its histories carry).
 */
export abstract class MoveRun<S extends string> {
  state: S | SharedMoveState = 'REQUESTED';
  undo: UndoRequest | undefined;
  recovery: RecoveryRequest | undefined;
  finished = false;
  /** Set once COMMITTING made the new side authoritative. */
  committed = false;
  lease: LeaseHold = 'held';
  readonly saga = new Saga();
  readonly forward = new CancellationScope();

  constructor(
    /** How Temporal shows the state: the current details' label, and the search attribute, if any. */
    readonly shown: { readonly label: string; readonly attribute?: string },
  ) {}

  protected abstract record(state: S | SharedMoveState, change: StateChange): Promise<void>;
  /** Adds what a step found out to its state's history line. */
  abstract annotate(state: S, detail: Record<string, unknown>): Promise<void>;
  /** Renews the lease for `ttlMs`; false when it is no longer the move's. */
  abstract renewLease(ttlMs: number): Promise<boolean>;

  /** Shows `state` in Temporal (search attribute, current details) without writing it. */
  show(state: S | SharedMoveState, details = `**${this.shown.label}:** ${state}`): void {
    this.state = state;
    if (this.shown.attribute) upsertSearchAttributes({ [this.shown.attribute]: [state] });
    setCurrentDetails(details);
  }

  /** Enters `state`: shown, and written (a compare-and-set on the states allowed before it). */
  async enter(state: S | SharedMoveState, change: StateChange = {}): Promise<void> {
    this.show(state);
    await this.record(state, change);
  }

  /** Writes `state` again (a decision's line) without showing it anew. */
  write(state: S | SharedMoveState, change: StateChange): Promise<void> {
    return this.record(state, change);
  }

  /** A renewal found the lease gone: the run stops at its next step boundary (`checkLease`). */
  leaseGone(): void {
    if (this.lease === 'held') this.lease = 'lost';
  }

  /**
   * At a step boundary before the commit, a lost lease stops the move: another operation may hold
   * the instance now.
   */
  checkLease(): void {
    if (this.committed) return;
    if (this.lease === 'lost' || (this.lease === 'reported' && this.lossStopsAgain())) {
      this.lease = 'reported';
      throw businessFailure('MIGRATION_LEASE_LOST');
    }
  }

  /** Whether a loss already reported stops the move again (only in runs of a kind begun before it did not). */
  protected lossStopsAgain(): boolean {
    return false;
  }
}
