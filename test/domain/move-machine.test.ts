import { describe, expect, it } from 'vitest';
import { migrationMachine } from '../../domain/migrations/states.js';
import { allowedActions, mayRecover, mayUndo } from '../../domain/moves/control.js';
import {
  isPastSwitch,
  mayRecoverStorageMove,
  mayUndoStorageMove,
  STORAGE_MOVE_STATES,
  type StorageMoveState,
  storageMoveMachine,
  storageMovePath,
  storageStatesBefore,
} from '../../domain/storage-moves/states.js';

/**
 * The one machine of every move (domain/moves/): a storage move follows the same table as a
 * migration, around its own steps and its own point of no return.
 */
describe('a storage move’s machine', () => {
  it('turns at SWITCHING on every path; a cold move of a running guest stops and starts it around the copy', () => {
    expect(storageMovePath('live', true)).toEqual([
      'REQUESTED',
      'COPYING',
      'VERIFYING',
      'SWITCHING',
      'COMMITTING',
      'COMPLETED',
      'CLEANING_UP',
      'CLEANED_UP',
    ]);
    expect(storageMovePath('cold', false)).toEqual(storageMovePath('live', true));
    expect(storageMovePath('cold', true)).toEqual([
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
    ]);
    for (const guestRunning of [true, false])
      for (const strategy of ['live', 'cold'] as const)
        expect(storageMoveMachine.pointOfNoReturn({ strategy, guestRunning })).toBe('SWITCHING');
    const past = STORAGE_MOVE_STATES.filter(isPastSwitch);
    expect(past).toEqual([
      'SWITCHING',
      'STARTING_GUEST',
      'COMMITTING',
      'COMPLETED',
      'CLEANING_UP',
      'CLEANED_UP',
      'RECOVERY_REQUIRED',
    ]);
  });

  it('fails into ROLLING_BACK before the switch and RECOVERY_REQUIRED from it on, as a migration does', () => {
    const options = { strategy: 'cold', guestRunning: true } as const;
    for (const state of storageMovePath('cold', true).slice(0, -1)) {
      const next = storageMoveMachine.allowedNext(state, options);
      expect(next, state).toContain(isPastSwitch(state) ? 'RECOVERY_REQUIRED' : 'ROLLING_BACK');
      expect(next, state).not.toContain(isPastSwitch(state) ? 'ROLLING_BACK' : 'RECOVERY_REQUIRED');
    }
    expect(storageMoveMachine.allowedNext('RECOVERY_REQUIRED', options)).toEqual([
      'SWITCHING',
      'STARTING_GUEST',
      'COMMITTING',
      'CLEANING_UP',
      'ROLLED_BACK',
    ]);
    // The same rule, a migration's: its own steps around the same shared states.
    expect(migrationMachine.allowedNext('RECOVERY_REQUIRED', 'cold')).toEqual([
      'STARTING_TARGET',
      'VERIFYING_TARGET',
      'COMMITTING',
      'CLEANING_UP',
      'ROLLED_BACK',
    ]);
  });

  it('writes a state only from the one before it on some path, an operator’s decision, or itself', () => {
    const allowedBefore = (to: StorageMoveState) => [...storageStatesBefore(to)].sort();
    expect(allowedBefore('COPYING')).toEqual(['COPYING', 'REQUESTED', 'STOPPING_GUEST']);
    expect(allowedBefore('SWITCHING')).toEqual(['RECOVERY_REQUIRED', 'SWITCHING', 'VERIFYING']);
    expect(allowedBefore('COMMITTING')).toEqual([
      'COMMITTING',
      'RECOVERY_REQUIRED',
      'STARTING_GUEST',
      'SWITCHING',
    ]);
    expect(allowedBefore('COMPLETED')).toEqual(['COMMITTING', 'COMPLETED']);
    expect(allowedBefore('CLEANING_UP')).toEqual(['CLEANING_UP', 'COMPLETED', 'RECOVERY_REQUIRED']);
    expect(allowedBefore('CLEANED_UP')).toEqual(['CLEANED_UP', 'CLEANING_UP']);
    expect(allowedBefore('ROLLING_BACK')).toEqual([
      'COPYING',
      'REQUESTED',
      'ROLLING_BACK',
      'STOPPING_GUEST',
      'VERIFYING',
    ]);
    expect(allowedBefore('ROLLED_BACK')).toEqual(['RECOVERY_REQUIRED', 'ROLLED_BACK', 'ROLLING_BACK']);
    expect(allowedBefore('RECOVERY_REQUIRED')).toEqual([
      'CLEANING_UP',
      'COMMITTING',
      'COMPLETED',
      'RECOVERY_REQUIRED',
      'STARTING_GUEST',
      'SWITCHING',
    ]);
    // Never back to a step before the switch, nor past the commit without it.
    expect(allowedBefore('VERIFYING')).not.toContain('RECOVERY_REQUIRED');
    expect(allowedBefore('CLEANED_UP')).not.toContain('COPYING');
  });
});

describe('what an administrator may do to a move, of either kind', () => {
  it('undoes only before the point of no return, with a reason, naming the kind', () => {
    expect(mayUndoStorageMove('COPYING', 'wrong backend')).toEqual({ ok: true });
    expect(mayUndoStorageMove('COPYING', ' ')).toMatchObject({ code: 'SVC-REQ-400' });
    expect(mayUndoStorageMove('SWITCHING', 'x')).toEqual({
      ok: false,
      code: 'MIGRATION_PAST_POINT_OF_NO_RETURN',
      detail: 'The storage move is SWITCHING, past its point of no return; use recovery instead.',
    });
    for (const state of ['ROLLING_BACK', 'ROLLED_BACK', 'COMPLETED', 'CLEANING_UP', 'CLEANED_UP'] as const)
      expect(mayUndoStorageMove(state, 'x')).toMatchObject({ code: 'MIGRATION_FINISHED' });
    expect(mayUndo({ state: 'READY', pastPointOfNoReturn: false }, 'x', 'migration')).toEqual({ ok: true });
  });

  it('decides only in RECOVERY_REQUIRED; after the commit only a retry, the same answer for both kinds', () => {
    expect(mayRecoverStorageMove({ state: 'COPYING', committed: false }, 'retry', '')).toEqual({
      ok: false,
      code: 'MIGRATION_NOT_RECOVERABLE',
      detail: 'The storage move is COPYING, not waiting for a recovery decision.',
    });
    expect(
      mayRecoverStorageMove({ state: 'RECOVERY_REQUIRED', committed: false }, 'source_authoritative', ''),
    ).toMatchObject({ code: 'SVC-REQ-400' });
    for (const noun of ['migration', 'storage move']) {
      const committed = { state: 'RECOVERY_REQUIRED', committed: true };
      expect(mayRecover(committed, 'target_authoritative', 'checked', noun)).toMatchObject({
        code: 'SVC-REQ-400',
      });
      expect(mayRecover(committed, 'retry', '', noun)).toEqual({ ok: true });
    }
  });

  it('offers the actions the verdicts allow', () => {
    const of = (state: StorageMoveState, failedStep: string | null = null) =>
      allowedActions({ state, pastPointOfNoReturn: isPastSwitch(state), failedStep });
    expect(of('COPYING')).toEqual(['cancel', 'rollback']);
    expect(of('SWITCHING')).toEqual([]);
    expect(of('RECOVERY_REQUIRED', 'SWITCHING')).toEqual([
      'retry',
      'target_authoritative',
      'source_authoritative',
    ]);
    expect(of('RECOVERY_REQUIRED', 'CLEANING_UP')).toEqual(['retry']);
  });
});
