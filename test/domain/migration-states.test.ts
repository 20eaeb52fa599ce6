import { describe, expect, it } from 'vitest';
import {
  allowedNext,
  happyPath,
  isPastPointOfNoReturn,
  mayTransition,
  pointOfNoReturn,
  statesBefore,
  wasPastPointOfNoReturnBeforeTheSwitch,
} from '../../domain/migrations/states.js';

/** SPEC.md §3's transition table, row by row, for both strategies. */
describe('the migration state machine', () => {
  it('walks the happy path, with LIVE_MIGRATING only when live', () => {
    for (const strategy of ['live', 'cold'] as const) {
      const path = happyPath(strategy);
      for (let i = 0; i + 1 < path.length; i++)
        expect(mayTransition(path[i]!, path[i + 1]!, strategy)).toBe(true);
    }
    expect(mayTransition('DEFINING_TARGET', 'LIVE_MIGRATING', 'live')).toBe(true);
    expect(mayTransition('DEFINING_TARGET', 'STARTING_TARGET', 'cold')).toBe(true);
    expect(mayTransition('DEFINING_TARGET', 'LIVE_MIGRATING', 'cold')).toBe(false);
    expect(mayTransition('DEFINING_TARGET', 'STARTING_TARGET', 'live')).toBe(false);
    expect(mayTransition('COMMITTING', 'COMPLETED', 'live')).toBe(true);
    expect(mayTransition('COMPLETED', 'CLEANING_UP', 'cold')).toBe(true);
  });

  it('puts the point of no return where the guest first runs on the target: a live move’s switch inside LIVE_MIGRATING', () => {
    expect(pointOfNoReturn('live')).toBe('LIVE_MIGRATING');
    expect(pointOfNoReturn('cold')).toBe('STARTING_TARGET');
    expect(isPastPointOfNoReturn('DEFINING_TARGET', 'live')).toBe(false);
    // Before its switch a live move still runs the guest on the source: cancel and rollback hold.
    expect(isPastPointOfNoReturn('LIVE_MIGRATING', 'live')).toBe(false);
    expect(isPastPointOfNoReturn('STARTING_TARGET', 'live')).toBe(true);
    expect(wasPastPointOfNoReturnBeforeTheSwitch('LIVE_MIGRATING', 'live')).toBe(true);
    expect(wasPastPointOfNoReturnBeforeTheSwitch('DEFINING_TARGET', 'live')).toBe(false);
    expect(isPastPointOfNoReturn('DEFINING_TARGET', 'cold')).toBe(false);
    expect(isPastPointOfNoReturn('STARTING_TARGET', 'cold')).toBe(true);
  });

  it('fails into ROLLING_BACK before the point of no return and RECOVERY_REQUIRED at or after it', () => {
    for (const strategy of ['live', 'cold'] as const) {
      for (const state of happyPath(strategy).slice(0, -3)) {
        if (state === 'LIVE_MIGRATING') continue;
        const expected = isPastPointOfNoReturn(state, strategy) ? 'RECOVERY_REQUIRED' : 'ROLLING_BACK';
        expect(allowedNext(state, strategy), `${strategy} ${state}`).toContain(expected);
        expect(allowedNext(state, strategy)).not.toContain(
          expected === 'ROLLING_BACK' ? 'RECOVERY_REQUIRED' : 'ROLLING_BACK',
        );
      }
    }
    // The switch inside LIVE_MIGRATING: a failure before it rolls back, one after it waits.
    expect(allowedNext('LIVE_MIGRATING', 'live')).toEqual([
      'STARTING_TARGET',
      'ROLLING_BACK',
      'RECOVERY_REQUIRED',
    ]);
    expect(allowedNext('ROLLING_BACK', 'live')).toEqual(['ROLLED_BACK']);
    expect(allowedNext('ROLLED_BACK', 'live')).toEqual([]);
    expect(allowedNext('CLEANED_UP', 'cold')).toEqual([]);
  });

  it('leaves RECOVERY_REQUIRED only by an operator: a step again, the commit, or rolled back', () => {
    expect(allowedNext('RECOVERY_REQUIRED', 'live')).toEqual([
      'LIVE_MIGRATING',
      'STARTING_TARGET',
      'VERIFYING_TARGET',
      'COMMITTING',
      'CLEANING_UP',
      'ROLLED_BACK',
    ]);
    expect(allowedNext('RECOVERY_REQUIRED', 'cold')).toEqual([
      'STARTING_TARGET',
      'VERIFYING_TARGET',
      'COMMITTING',
      'CLEANING_UP',
      'ROLLED_BACK',
    ]);
  });

  it('fails into RECOVERY_REQUIRED after the commit too: a failed cleanup waits for an operator', () => {
    for (const strategy of ['live', 'cold'] as const) {
      expect(allowedNext('COMPLETED', strategy)).toEqual(['CLEANING_UP', 'RECOVERY_REQUIRED']);
      expect(allowedNext('CLEANING_UP', strategy)).toEqual(['CLEANED_UP', 'RECOVERY_REQUIRED']);
    }
  });

  it('writes a state only from the states the table allows before it, or itself', () => {
    expect(statesBefore('READY', 'live')).toEqual(['REQUESTED', 'READY']);
    expect(statesBefore('LIVE_MIGRATING', 'live')).toEqual([
      'DEFINING_TARGET',
      'RECOVERY_REQUIRED',
      'LIVE_MIGRATING',
    ]);
    expect(statesBefore('LIVE_MIGRATING', 'cold')).toEqual(['LIVE_MIGRATING']);
    expect(statesBefore('ROLLED_BACK', 'cold')).toEqual(['ROLLING_BACK', 'RECOVERY_REQUIRED', 'ROLLED_BACK']);
    expect(statesBefore('COMPLETED', 'cold')).toEqual(['COMMITTING', 'COMPLETED']);
    expect(statesBefore('REQUESTED', 'live')).toEqual(['REQUESTED']);
  });
});
