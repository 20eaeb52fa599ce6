import { describe, expect, it } from 'vitest';
import { allowedActions, committedBefore, mayRecover, mayRollBack } from '../../domain/migrations/control.js';
import {
  happyPath,
  isPastPointOfNoReturn,
  type MigrationState,
  RECOVERY_DECISIONS,
} from '../../domain/migrations/states.js';

describe('what an administrator may do to a migration', () => {
  it('cancels or rolls back only before the point of no return, with a reason', () => {
    for (const strategy of ['live', 'cold'] as const) {
      for (const state of happyPath(strategy)) {
        const verdict = mayRollBack({ state, strategy }, 'maintenance');
        const ended = ['COMPLETED', 'CLEANING_UP', 'CLEANED_UP'].includes(state);
        const expected = ended
          ? 'MIGRATION_FINISHED'
          : isPastPointOfNoReturn(state, strategy)
            ? 'MIGRATION_PAST_POINT_OF_NO_RETURN'
            : undefined;
        expect(verdict.ok ? undefined : verdict.code, `${strategy} ${state}`).toBe(expected);
      }
    }
    for (const state of ['ROLLING_BACK', 'ROLLED_BACK'] as const)
      expect(mayRollBack({ state, strategy: 'live' }, 'x')).toMatchObject({
        ok: false,
        code: 'MIGRATION_FINISHED',
      });
    expect(mayRollBack({ state: 'RECOVERY_REQUIRED', strategy: 'cold' }, 'x')).toMatchObject({
      code: 'MIGRATION_PAST_POINT_OF_NO_RETURN',
    });
    expect(mayRollBack({ state: 'TRANSFERRING', strategy: 'live' }, '  ')).toEqual({
      ok: false,
      code: 'SVC-REQ-400',
      detail: 'A reason is required.',
    });
  });

  it('takes a recovery decision only in RECOVERY_REQUIRED; after the commit only a retry', () => {
    expect(mayRecover({ state: 'TRANSFERRING', committed: false }, 'retry', '')).toMatchObject({
      code: 'MIGRATION_NOT_RECOVERABLE',
    });
    expect(mayRecover({ state: 'RECOVERY_REQUIRED', committed: false }, 'retry', '')).toEqual({ ok: true });
    expect(
      mayRecover({ state: 'RECOVERY_REQUIRED', committed: false }, 'source_authoritative', ' '),
    ).toMatchObject({
      code: 'SVC-REQ-400',
    });
    expect(
      mayRecover({ state: 'RECOVERY_REQUIRED', committed: false }, 'source_authoritative', 'checked'),
    ).toEqual({
      ok: true,
    });
    expect(
      mayRecover({ state: 'RECOVERY_REQUIRED', committed: true }, 'target_authoritative', 'checked'),
    ).toMatchObject({ code: 'SVC-REQ-400' });
    expect(mayRecover({ state: 'RECOVERY_REQUIRED', committed: true }, 'retry', '')).toEqual({ ok: true });
  });

  it('counts a migration as committed when it failed after COMMITTING', () => {
    expect(committedBefore('CLEANING_UP')).toBe(true);
    expect(committedBefore('COMPLETED')).toBe(true);
    expect(committedBefore('COMMITTING')).toBe(false);
    expect(committedBefore('STARTING_TARGET')).toBe(false);
    expect(committedBefore(null)).toBe(false);
  });
});

describe('the actions a migration allows now', () => {
  it('are cancel and rollback before the point of no return, the decisions in RECOVERY_REQUIRED, nothing at the end', () => {
    const of = (state: MigrationState, failedStep: string | null = null) =>
      allowedActions({ state, strategy: 'cold', failedStep });
    expect(of('TRANSFERRING')).toEqual(['cancel', 'rollback']);
    expect(of('STARTING_TARGET')).toEqual([]);
    expect(of('RECOVERY_REQUIRED', 'STARTING_TARGET')).toEqual([
      'retry',
      'target_authoritative',
      'source_authoritative',
    ]);
    expect(of('RECOVERY_REQUIRED', 'CLEANING_UP')).toEqual(['retry']);
    for (const state of ['ROLLING_BACK', 'ROLLED_BACK', 'COMPLETED', 'CLEANED_UP'] as const)
      expect(of(state)).toEqual([]);
  });

  it('agree with the verdicts the service asks, given a reason', () => {
    for (const strategy of ['live', 'cold'] as const)
      for (const state of [
        ...happyPath(strategy),
        'ROLLING_BACK',
        'ROLLED_BACK',
        'RECOVERY_REQUIRED',
      ] as const)
        for (const failedStep of [null, 'STARTING_TARGET', 'CLEANING_UP']) {
          const allowed = allowedActions({ state, strategy, failedStep });
          expect(allowed.includes('cancel'), `${state}`).toBe(mayRollBack({ state, strategy }, 'why').ok);
          for (const decision of RECOVERY_DECISIONS)
            expect(allowed.includes(decision), `${state} ${decision}`).toBe(
              mayRecover({ state, committed: committedBefore(failedStep) }, decision, 'why').ok,
            );
        }
  });
});
