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
 * The point of no return (DESIGN.md; docs/migration.md "The point of no return"): where the guest
 * first runs on the target. A cold move turns at STARTING_TARGET. A live move turns inside
 * LIVE_MIGRATING, at the switchover itself (QEMU completing the move, or post-copy starting): while
 * pre-copy runs the source still runs the guest, so a timeout, a cancel or a failure there rolls
 * back; a failure after the switch waits for an operator (RECOVERY_REQUIRED). The run tells the two
 * apart (workflows/migrate-instance/switch.ts); it never restarts the source by itself.
 */
export const migrationMachine = moveMachine<MigrationState, MigrationStrategy>({
  states: MIGRATION_STATES,
  order: happyPath('live'),
  pointOfNoReturn: 'LIVE_MIGRATING',
  turnsWithin: 'LIVE_MIGRATING',
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

/**
 * The rule runs begun before the switch moved into LIVE_MIGRATING keep (their histories hold no
 * `migration-turns-at-switch` marker): entering LIVE_MIGRATING was the point of no return.
 */
export const wasPastPointOfNoReturnBeforeTheSwitch = (
  state: MigrationState,
  strategy: MigrationStrategy,
): boolean => (state === 'LIVE_MIGRATING' && strategy === 'live') || isPastPointOfNoReturn(state, strategy);
