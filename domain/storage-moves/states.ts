import type { Verdict } from '../errors.js';
import { mayRecover, mayUndo } from '../moves/control.js';
import { type MoveStrategy, moveMachine, type RecoveryDecision } from '../moves/states.js';

/**
 * A storage move takes an instance's disks from one storage backend to another on the same
 * hypervisor, a kind of move (domain/moves/): the old copy stays authoritative until the switch,
 * and is kept for the retention window after the commit. Live, the guest runs on while its disks
 * are mirrored and switched; cold, a running guest is stopped for the copy and started after.
 */
export const STORAGE_MOVE_STATES = [
  'REQUESTED',
  'STOPPING_GUEST',
  'COPYING',
  'VERIFYING',
  'SWITCHING',
  'STARTING_GUEST',
  'COMMITTING',
  'COMPLETED',
  'CLEANING_UP',
  'CLEANED_UP',
  'ROLLING_BACK',
  'ROLLED_BACK',
  'RECOVERY_REQUIRED',
] as const;
export type StorageMoveState = (typeof STORAGE_MOVE_STATES)[number];

/** What shapes a storage move's path: its strategy, and whether the guest ran when it was asked. */
export interface StorageMoveOptions {
  readonly strategy: MoveStrategy;
  readonly guestRunning: boolean;
}

/** The steps of the happy path; a cold move of a running guest stops it first and starts it after. */
export function storageMovePath(strategy: MoveStrategy, guestRunning: boolean): StorageMoveState[] {
  const cold = strategy === 'cold' && guestRunning;
  return STORAGE_MOVE_STATES.slice(0, STORAGE_MOVE_STATES.indexOf('CLEANED_UP') + 1).filter(
    (state) => cold || (state !== 'STOPPING_GUEST' && state !== 'STARTING_GUEST'),
  );
}

/**
 * The point of no return: SWITCHING, where the guest (or its definition) starts using the new
 * copies. Before it, a failure rolls back and the old copies, untouched, stay authoritative; from
 * it on, the panel waits for an operator (RECOVERY_REQUIRED).
 */
export const STORAGE_POINT_OF_NO_RETURN: StorageMoveState = 'SWITCHING';

export const storageMoveMachine = moveMachine<StorageMoveState, StorageMoveOptions>({
  states: STORAGE_MOVE_STATES,
  order: storageMovePath('cold', true),
  pointOfNoReturn: STORAGE_POINT_OF_NO_RETURN,
  path: ({ strategy, guestRunning }) => storageMovePath(strategy, guestRunning),
  variants: [
    { strategy: 'live', guestRunning: true },
    { strategy: 'cold', guestRunning: true },
    { strategy: 'cold', guestRunning: false },
  ],
});

/** Whether a storage move in `state` has reached the switch (RECOVERY_REQUIRED always has). */
export const isPastSwitch = (state: StorageMoveState): boolean =>
  storageMoveMachine.isPastPointOfNoReturn(state);

/** Cancel and rollback: before the switch only, with a reason. */
export const mayUndoStorageMove = (state: StorageMoveState, reason: string): Verdict =>
  mayUndo({ state, pastPointOfNoReturn: isPastSwitch(state) }, reason, 'storage move');

/** An operator's decision: only in RECOVERY_REQUIRED; an outcome needs a reason; after the commit only a retry. */
export const mayRecoverStorageMove = (
  move: { state: StorageMoveState; committed: boolean },
  decision: RecoveryDecision,
  reason: string,
): Verdict => mayRecover(move, decision, reason, 'storage move');

/**
 * The states a storage move may be in when `to` is written (a compare-and-set where its state is
 * written), whatever its strategy: the machine's table (domain/moves/states.ts).
 */
export const storageStatesBefore = (to: StorageMoveState): StorageMoveState[] =>
  storageMoveMachine.statesBeforeAny(to);
