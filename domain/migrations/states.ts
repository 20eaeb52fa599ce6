import {
  MOVE_MODES,
  MOVE_STRATEGIES,
  type MoveMode,
  type MoveStrategy,
  moveMachine,
  RECOVERY_DECISIONS,
  type RecoveryDecision,
  TERMINAL_MOVE_STATES,
} from '../moves/states.js';

/**
 * The migration state machine (SPEC.md §3 "Migration states"), a kind of move (domain/moves/): its
 * own steps between REQUESTED and COMMITTING; LIVE_MIGRATING only when the live strategy is in effect.
 */
export const MIGRATION_STATES = [
  'REQUESTED',
  'READY',
  'PREPARING_TARGET',
  'TRANSFERRING',
  'VERIFYING_DISK',
  'PREPARING_NETWORK',
  'STOPPING_SOURCE',
  'DEFINING_TARGET',
  'LIVE_MIGRATING',
  'STARTING_TARGET',
  'VERIFYING_TARGET',
  'COMMITTING',
  'COMPLETED',
  'CLEANING_UP',
  'CLEANED_UP',
  'ROLLING_BACK',
  'ROLLED_BACK',
  'RECOVERY_REQUIRED',
] as const;
export type MigrationState = (typeof MIGRATION_STATES)[number];

// A migration's mode and strategy are a move's. These names are what the API, the CLI, the pages
// and the schema import; the kit's own (MOVE_MODES, MoveMode, …) are the ones to use elsewhere.
export const MIGRATION_MODES = MOVE_MODES;
export type MigrationMode = MoveMode;
export const MIGRATION_STRATEGIES = MOVE_STRATEGIES;
export type MigrationStrategy = MoveStrategy;
export { RECOVERY_DECISIONS, type RecoveryDecision };

/** The steps of the happy path, in order, for a strategy. */
export function happyPath(strategy: MigrationStrategy): MigrationState[] {
  return MIGRATION_STATES.slice(0, MIGRATION_STATES.indexOf('CLEANED_UP') + 1).filter(
    (state) => state !== 'LIVE_MIGRATING' || strategy === 'live',
  );
}

/**
 * The point of no return (DESIGN.md): the first step in which the guest runs on the target,
 * LIVE_MIGRATING for a live move, STARTING_TARGET for a cold one. Before it, a failure rolls back
 * and the untouched source stays authoritative; at or after it, the panel stops and waits for an
 * operator (RECOVERY_REQUIRED), and never restarts the source by itself.
 */
export const migrationMachine = moveMachine<MigrationState, MigrationStrategy>({
  states: MIGRATION_STATES,
  order: happyPath('live'),
  pointOfNoReturn: 'LIVE_MIGRATING',
  path: happyPath,
  variants: MOVE_STRATEGIES,
});

export const pointOfNoReturn = (strategy: MigrationStrategy): MigrationState =>
  migrationMachine.pointOfNoReturn(strategy);

export const isPastPointOfNoReturn = (state: MigrationState, strategy: MigrationStrategy): boolean =>
  migrationMachine.isPastPointOfNoReturn(state, strategy);

export const TERMINAL_STATES: readonly MigrationState[] = TERMINAL_MOVE_STATES;

/** Every allowed transition: SPEC.md's table, with the failure rows spelled out per state. */
export const allowedNext = (state: MigrationState, strategy: MigrationStrategy): MigrationState[] =>
  migrationMachine.allowedNext(state, strategy);

export const mayTransition = (from: MigrationState, to: MigrationState, strategy: MigrationStrategy) =>
  allowedNext(from, strategy).includes(to);

/** The states a migration may be in when `to` is written (a compare-and-set where it is written). */
export const statesBefore = (to: MigrationState, strategy: MigrationStrategy): MigrationState[] =>
  migrationMachine.statesBefore(to, strategy);
