import type { Verdict } from '../errors.js';
import {
  isPastPointOfNoReturn,
  type MigrationState,
  type MigrationStrategy,
  RECOVERY_DECISIONS,
  type RecoveryDecision,
  TERMINAL_STATES,
} from './states.js';

// What an administrator may do to a running migration (SPEC.md §4 cancel, rollback, recover).
// The service asks before it calls the workflow, and the workflow's update validators ask again
// against the run's own state, which is the authority while it runs.

const ENDED: readonly MigrationState[] = [...TERMINAL_STATES, 'ROLLING_BACK', 'COMPLETED', 'CLEANING_UP'];

/** Cancel and rollback: only before the point of no return, with a reason. */
export function mayRollBack(
  migration: { state: MigrationState; strategy: MigrationStrategy },
  reason: string,
): Verdict {
  const now = rollBackAllowedNow(migration);
  if (!now.ok) return now;
  if (!reason.trim()) return { ok: false, code: 'SVC-REQ-400', detail: 'A reason is required.' };
  return { ok: true };
}

function rollBackAllowedNow(migration: { state: MigrationState; strategy: MigrationStrategy }): Verdict {
  if (ENDED.includes(migration.state))
    return { ok: false, code: 'MIGRATION_FINISHED', detail: `The migration is ${migration.state}.` };
  if (isPastPointOfNoReturn(migration.state, migration.strategy))
    return {
      ok: false,
      code: 'MIGRATION_PAST_POINT_OF_NO_RETURN',
      detail: `The migration is ${migration.state}, past its point of no return; use recovery instead.`,
    };
  return { ok: true };
}

/**
 * An operator's recovery decision: only in RECOVERY_REQUIRED; recording an outcome needs a
 * reason; once the commit made the target authoritative, only a retry (of the cleanup) is left.
 */
export function mayRecover(
  migration: { state: MigrationState; committed: boolean },
  decision: RecoveryDecision,
  reason: string,
): Verdict {
  const now = decisionAllowedNow(migration, decision);
  if (!now.ok && now.code === 'MIGRATION_NOT_RECOVERABLE') return now;
  if (decision !== 'retry' && !reason.trim())
    return { ok: false, code: 'SVC-REQ-400', detail: 'Recording an outcome needs a reason.' };
  return now;
}

function decisionAllowedNow(
  migration: { state: MigrationState; committed: boolean },
  decision: RecoveryDecision,
): Verdict {
  if (migration.state !== 'RECOVERY_REQUIRED')
    return {
      ok: false,
      code: 'MIGRATION_NOT_RECOVERABLE',
      detail: `The migration is ${migration.state}, not waiting for a recovery decision.`,
    };
  if (migration.committed && decision !== 'retry')
    return {
      ok: false,
      code: 'SVC-REQ-400',
      detail: 'The target is already authoritative: only a retry of the cleanup is possible.',
    };
  return { ok: true };
}

/** Whether a migration that failed at `failedStep` had committed: the target is authoritative. */
export const committedBefore = (failedStep: string | null): boolean =>
  failedStep === 'COMPLETED' || failedStep === 'CLEANING_UP';

/** What an administrator can do about a migration: undo it, or decide on one waiting for recovery. */
export const OPERATOR_ACTIONS = ['cancel', 'rollback', ...RECOVERY_DECISIONS] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/**
 * The actions a migration's state allows now, each still to be given its reason (the admin pages
 * offer these and no others; the service and the workflow ask again when one is taken).
 */
export function allowedActions(migration: {
  state: MigrationState;
  strategy: MigrationStrategy;
  failedStep: string | null;
}): OperatorAction[] {
  const undo = rollBackAllowedNow(migration).ok ? (['cancel', 'rollback'] as const) : [];
  const committed = committedBefore(migration.failedStep);
  const decide = RECOVERY_DECISIONS.filter(
    (decision) => decisionAllowedNow({ state: migration.state, committed }, decision).ok,
  );
  return [...undo, ...decide];
}
