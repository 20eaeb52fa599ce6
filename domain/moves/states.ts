/**
 * The machine every move of an instance shares (DESIGN.md "One move machine"; SPEC.md §3 "Migration
 * states"): a migration between hypervisors and a storage move between backends each bring the
 * steps of their happy path and where their point of no return lies; the states around those
 * steps, and what may follow what, are the same for every kind.
 */
export const MOVE_MODES = ['LIVE_REQUIRED', 'LIVE_IF_POSSIBLE', 'AUTO', 'COLD'] as const;
export type MoveMode = (typeof MOVE_MODES)[number];

export const MOVE_STRATEGIES = ['live', 'cold'] as const;
export type MoveStrategy = (typeof MOVE_STRATEGIES)[number];

/** A recovery decision of an operator (SPEC.md §4 `recover --mark`). */
export const RECOVERY_DECISIONS = ['retry', 'target_authoritative', 'source_authoritative'] as const;
export type RecoveryDecision = (typeof RECOVERY_DECISIONS)[number];

/** The states every kind has, whatever its own steps. */
export type SharedMoveState =
  | 'REQUESTED'
  | 'COMMITTING'
  | 'COMPLETED'
  | 'CLEANING_UP'
  | 'CLEANED_UP'
  | 'ROLLING_BACK'
  | 'ROLLED_BACK'
  | 'RECOVERY_REQUIRED';

export const TERMINAL_MOVE_STATES = ['CLEANED_UP', 'ROLLED_BACK'] as const satisfies SharedMoveState[];

export interface MoveMachine<S extends string, O> {
  /** The happy path for a move's options (its strategy, and for some kinds more). */
  path(options: O): S[];
  /**
   * The first step in which the new side is used: its state for a move's options. A kind whose
   * turn lies inside a step (`turnsWithin`) names that step: the step itself is before the point
   * of no return until it switches, and after it once it has.
   */
  pointOfNoReturn(options: O): S;
  /**
   * Whether a move in `state` has reached its point of no return (RECOVERY_REQUIRED always has).
   * Given the options, a state off their path has not; without them, the kind's order decides.
   */
  isPastPointOfNoReturn(state: S, options?: O): boolean;
  allowedNext(state: S, options: O): S[];
  /** The states a move may be in when `to` is written, and `to` itself (a step may be written twice). */
  statesBefore(to: S, options: O): S[];
  /** The same for a move whose options the writer does not know: any of the kind's paths. */
  statesBeforeAny(to: S): S[];
}

/**
 * A kind's machine. `order` is its happy path with every optional step, `pointOfNoReturn` the first
 * step (in that order) from which the new side is used: a path without it turns at its next step
 * (a cold migration has no LIVE_MIGRATING, and turns at STARTING_TARGET). `turnsWithin`, when set,
 * says that step switches half-way (a live move's switchover, inside LIVE_MIGRATING): the step
 * counts as before the turn (cancel and rollback allowed), and fails into ROLLING_BACK or
 * RECOVERY_REQUIRED as the run finds the switch not made or made. `variants` lists every option a
 * move may have, for `statesBeforeAny`.
 */
export function moveMachine<S extends string, O>(kind: {
  readonly states: readonly (S | SharedMoveState)[];
  readonly order: readonly S[];
  readonly pointOfNoReturn: S;
  readonly turnsWithin?: S;
  readonly path: (options: O) => S[];
  readonly variants: readonly O[];
}): MoveMachine<S | SharedMoveState, O> {
  type State = S | SharedMoveState;
  const rank = (state: State) => (kind.order as readonly State[]).indexOf(state);
  const turn = rank(kind.pointOfNoReturn);
  const pointOfNoReturn = (options: O) => kind.path(options).find((s) => rank(s) >= turn)!;
  const isPastPointOfNoReturn = (state: State, options?: O) => {
    if (state === 'RECOVERY_REQUIRED') return true;
    if (state === kind.turnsWithin) return false;
    if (options !== undefined && !(kind.path(options) as State[]).includes(state)) return false;
    return rank(state) >= 0 && rank(state) >= turn;
  };
  const allowedNext = (state: State, options: O): State[] => {
    const path: State[] = kind.path(options);
    if (state === 'ROLLING_BACK') return ['ROLLED_BACK'];
    // An operator's decision: retry the failed step (one at or after the point of no return, or
    // the cleanup of the old side after the commit), make the new side authoritative (the
    // commit), or the old one (rolled back).
    if (state === 'RECOVERY_REQUIRED')
      return [
        ...path.slice(path.indexOf(pointOfNoReturn(options)), path.indexOf('COMMITTING') + 1),
        'CLEANING_UP',
        'ROLLED_BACK',
      ];
    const at = path.indexOf(state);
    if (at < 0 || (TERMINAL_MOVE_STATES as readonly State[]).includes(state)) return [];
    const next = path[at + 1];
    // Every state at or after the point of no return fails into RECOVERY_REQUIRED, COMPLETED and
    // CLEANING_UP included (a failed cleanup of the old side waits for an operator's retry).
    if (state === kind.turnsWithin) return [...(next ? [next] : []), 'ROLLING_BACK', 'RECOVERY_REQUIRED'];
    const onFailure = isPastPointOfNoReturn(state, options) ? 'RECOVERY_REQUIRED' : 'ROLLING_BACK';
    return [...(next ? [next] : []), onFailure];
  };
  const statesBefore = (to: State, options: O): State[] => [
    ...kind.states.filter((from) => allowedNext(from, options).includes(to)),
    to,
  ];
  return {
    path: kind.path,
    pointOfNoReturn,
    isPastPointOfNoReturn,
    allowedNext,
    statesBefore,
    statesBeforeAny: (to) => [...new Set(kind.variants.flatMap((options) => statesBefore(to, options)))],
  };
}
