import type { Verdict } from '../errors.js';
import type { MigrationMode, MigrationStrategy, RecoveryDecision } from '../migrations/states.js';

/**
 * A storage move takes an instance's disks from one storage backend to another on the same
 * hypervisor, with the migration's rule: the old copy stays authoritative until the switch, and is
 * kept for the retention window after the commit. Live, the guest runs on while its disks are
 * mirrored and switched; cold, a running guest is stopped for the copy and started after.
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

export type { MigrationMode as StorageMoveMode, MigrationStrategy as StorageMoveStrategy };

/** The steps of the happy path; a cold move of a running guest stops it first and starts it after. */
export function storageMovePath(strategy: MigrationStrategy, guestRunning: boolean): StorageMoveState[] {
  const cold = strategy === 'cold' && guestRunning;
  return [
    'REQUESTED',
    ...(cold ? (['STOPPING_GUEST'] as const) : []),
    'COPYING',
    'VERIFYING',
    'SWITCHING',
    ...(cold ? (['STARTING_GUEST'] as const) : []),
    'COMMITTING',
    'COMPLETED',
    'CLEANING_UP',
    'CLEANED_UP',
  ];
}

/**
 * The point of no return: SWITCHING, where the guest (or its definition) starts using the new
 * copies. Before it, a failure rolls back and the old copies, untouched, stay authoritative; from
 * it on, the panel waits for an operator (RECOVERY_REQUIRED).
 */
export const STORAGE_POINT_OF_NO_RETURN: StorageMoveState = 'SWITCHING';

const AFTER_SWITCH: readonly StorageMoveState[] = [
  'SWITCHING',
  'STARTING_GUEST',
  'COMMITTING',
  'COMPLETED',
  'CLEANING_UP',
  'CLEANED_UP',
  'RECOVERY_REQUIRED',
];
export const isPastSwitch = (state: StorageMoveState) => AFTER_SWITCH.includes(state);

export const STORAGE_MOVE_ENDED: readonly StorageMoveState[] = [
  'COMPLETED',
  'CLEANING_UP',
  'CLEANED_UP',
  'ROLLING_BACK',
  'ROLLED_BACK',
];

/** Cancel and rollback: before the switch only, with a reason. */
export function mayUndoStorageMove(state: StorageMoveState, reason: string): Verdict {
  if (STORAGE_MOVE_ENDED.includes(state))
    return { ok: false, code: 'MIGRATION_FINISHED', detail: `The storage move is ${state}.` };
  if (isPastSwitch(state))
    return {
      ok: false,
      code: 'MIGRATION_PAST_POINT_OF_NO_RETURN',
      detail: `The storage move is ${state}, past its point of no return; use recovery instead.`,
    };
  if (!reason.trim()) return { ok: false, code: 'SVC-REQ-400', detail: 'A reason is required.' };
  return { ok: true };
}

/** An operator's decision: only in RECOVERY_REQUIRED; an outcome needs a reason; after the commit only a retry. */
export function mayRecoverStorageMove(
  move: { state: StorageMoveState; committed: boolean },
  decision: RecoveryDecision,
  reason: string,
): Verdict {
  if (move.state !== 'RECOVERY_REQUIRED')
    return { ok: false, code: 'MIGRATION_NOT_RECOVERABLE', detail: `The storage move is ${move.state}.` };
  if (move.committed && decision !== 'retry')
    return {
      ok: false,
      code: 'MIGRATION_NOT_RECOVERABLE',
      detail: 'The new copies are authoritative since the commit; only the cleanup can be retried.',
    };
  if (decision !== 'retry' && !reason.trim())
    return { ok: false, code: 'SVC-REQ-400', detail: 'A reason is required.' };
  return { ok: true };
}

/** The happy path's states in order, every strategy's (a live move skips the guest's stop and start). */
const FORWARD = STORAGE_MOVE_STATES.filter(
  (s) => !['ROLLING_BACK', 'ROLLED_BACK', 'RECOVERY_REQUIRED'].includes(s),
);

/**
 * The states a storage move may be in when `to` is written (a compare-and-set where its state is
 * written): the happy path only goes forward; ROLLING_BACK only before the switch; ROLLED_BACK
 * after a rollback or an operator's decision; RECOVERY_REQUIRED only from the switch on; and an
 * operator's retry re-enters a step from RECOVERY_REQUIRED. `to` itself: a step may be written twice.
 */
export function storageStatesBefore(to: StorageMoveState): StorageMoveState[] {
  switch (to) {
    case 'ROLLING_BACK':
      return [...FORWARD.filter((s) => !isPastSwitch(s)), 'ROLLING_BACK'];
    case 'ROLLED_BACK':
      return ['ROLLING_BACK', 'RECOVERY_REQUIRED', 'ROLLED_BACK'];
    case 'RECOVERY_REQUIRED':
      return [...FORWARD.filter((s) => isPastSwitch(s) && s !== 'CLEANED_UP'), 'RECOVERY_REQUIRED'];
    default:
      return [...FORWARD.slice(0, FORWARD.indexOf(to) + 1), 'RECOVERY_REQUIRED'];
  }
}
