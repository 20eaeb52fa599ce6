import type { Verdict } from '../errors.js';
import {
  mayRecover as mayRecoverMove,
  mayUndo,
  allowedActions as moveActions,
  type OperatorAction,
} from '../moves/control.js';
import {
  isPastPointOfNoReturn,
  type MigrationState,
  type MigrationStrategy,
  type RecoveryDecision,
} from './states.js';

// What an administrator may do to a running migration (SPEC.md §4 cancel, rollback, recover): the
// rules every move follows (domain/moves/control.ts), given a migration's point of no return.

export { committedBefore, OPERATOR_ACTIONS, type OperatorAction } from '../moves/control.js';

/**
 * Cancel and rollback: only before the point of no return, with a reason. A live move in
 * LIVE_MIGRATING has not switched yet as far as the rule knows (the run refuses once it has);
 * `past` is the rule of a run begun before that (states.ts wasPastPointOfNoReturnBeforeTheSwitch).
 */
export const mayRollBack = (
  migration: { state: MigrationState; strategy: MigrationStrategy },
  reason: string,
  past: (state: MigrationState, strategy: MigrationStrategy) => boolean = isPastPointOfNoReturn,
): Verdict =>
  mayUndo(
    {
      state: migration.state,
      pastPointOfNoReturn: past(migration.state, migration.strategy),
    },
    reason,
    'migration',
  );

/** An operator's recovery decision: only in RECOVERY_REQUIRED; after the commit, only a retry. */
export const mayRecover = (
  migration: { state: MigrationState; committed: boolean },
  decision: RecoveryDecision,
  reason: string,
): Verdict => mayRecoverMove(migration, decision, reason, 'migration');

/** The actions a migration's state allows now (the admin pages offer these and no others). */
export const allowedActions = (migration: {
  state: MigrationState;
  strategy: MigrationStrategy;
  failedStep: string | null;
}): OperatorAction[] =>
  moveActions({
    state: migration.state,
    pastPointOfNoReturn: isPastPointOfNoReturn(migration.state, migration.strategy),
    failedStep: migration.failedStep,
  });
