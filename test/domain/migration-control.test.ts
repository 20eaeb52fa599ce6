import { describe, expect, it } from 'vitest';
import { committedBefore, mayRecover, mayRollBack } from '../../domain/migrations/control.js';
import { happyPath, isPastPointOfNoReturn } from '../../domain/migrations/states.js';

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
