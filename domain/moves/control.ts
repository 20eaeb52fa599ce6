import type { Verdict } from '../errors.js';
import { RECOVERY_DECISIONS, type RecoveryDecision, TERMINAL_MOVE_STATES } from './states.js';

// What an administrator may do to a running move of any kind (SPEC.md §4 cancel, rollback,
// recover). The service asks before it calls the run, and the run's update validators ask again
// against the run's own state, which is the authority while it runs. `noun` names the kind in the
// refusal's detail ("migration", "storage move").

/** The facts the rules judge: the move's state, and whether it is at or past its point of no return. */
export interface MoveFacts {
  readonly state: string;
  readonly pastPointOfNoReturn: boolean;
}

/** Undone already, or committed: no undo can stop it. */
const UNDO_OVER: readonly string[] = [...TERMINAL_MOVE_STATES, 'ROLLING_BACK', 'COMPLETED', 'CLEANING_UP'];

function undoAllowedNow(move: MoveFacts, noun: string): Verdict {
  if (UNDO_OVER.includes(move.state))
    return { ok: false, code: 'MIGRATION_FINISHED', detail: `The ${noun} is ${move.state}.` };
  if (move.pastPointOfNoReturn)
    return {
      ok: false,
      code: 'MIGRATION_PAST_POINT_OF_NO_RETURN',
      detail: `The ${noun} is ${move.state}, past its point of no return; use recovery instead.`,
    };
  return { ok: true };
}

/** Cancel and rollback: only before the point of no return, with a reason. */
export function mayUndo(move: MoveFacts, reason: string, noun: string): Verdict {
  const now = undoAllowedNow(move, noun);
  if (!now.ok) return now;
  if (!reason.trim()) return { ok: false, code: 'SVC-REQ-400', detail: 'A reason is required.' };
  return { ok: true };
}

/** Whether a move that failed at `failedStep` had committed: its new side is authoritative. */
export const committedBefore = (failedStep: string | null): boolean =>
  failedStep === 'COMPLETED' || failedStep === 'CLEANING_UP';

function decisionAllowedNow(
  move: { state: string; committed: boolean },
  decision: RecoveryDecision,
  noun: string,
): Verdict {
  if (move.state !== 'RECOVERY_REQUIRED')
    return {
      ok: false,
      code: 'MIGRATION_NOT_RECOVERABLE',
      detail: `The ${noun} is ${move.state}, not waiting for a recovery decision.`,
    };
  if (move.committed && decision !== 'retry')
    return {
      ok: false,
      code: 'SVC-REQ-400',
      detail: `The ${noun} committed: its new side is authoritative, and only a retry of the cleanup is possible.`,
    };
  return { ok: true };
}

/**
 * An operator's recovery decision: only in RECOVERY_REQUIRED; recording an outcome needs a reason;
 * once the commit made the new side authoritative, only a retry (of the cleanup) is left.
 */
export function mayRecover(
  move: { state: string; committed: boolean },
  decision: RecoveryDecision,
  reason: string,
  noun: string,
): Verdict {
  const now = decisionAllowedNow(move, decision, noun);
  if (!now.ok && now.code === 'MIGRATION_NOT_RECOVERABLE') return now;
  if (decision !== 'retry' && !reason.trim())
    return { ok: false, code: 'SVC-REQ-400', detail: 'Recording an outcome needs a reason.' };
  return now;
}

/** What an administrator can do about a move: undo it, or decide on one waiting for recovery. */
export const OPERATOR_ACTIONS = ['cancel', 'rollback', ...RECOVERY_DECISIONS] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/**
 * The actions a move's state allows now, each still to be given its reason (the admin pages offer
 * these and no others; the service and the run ask again when one is taken).
 */
export function allowedActions(move: MoveFacts & { failedStep: string | null }): OperatorAction[] {
  const undo = undoAllowedNow(move, 'move').ok ? (['cancel', 'rollback'] as const) : [];
  const committed = committedBefore(move.failedStep);
  const decide = RECOVERY_DECISIONS.filter(
    (decision) => decisionAllowedNow({ state: move.state, committed }, decision, 'move').ok,
  );
  return [...undo, ...decide];
}
