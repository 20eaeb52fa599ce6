/**
 * The migration state machine (SPEC.md §3 "Migration states"). The happy path runs from REQUESTED
 * to CLEANED_UP; LIVE_MIGRATING only when the live strategy is in effect.
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

export const MIGRATION_MODES = ['LIVE_REQUIRED', 'LIVE_IF_POSSIBLE', 'AUTO', 'COLD'] as const;
export type MigrationMode = (typeof MIGRATION_MODES)[number];

export const MIGRATION_STRATEGIES = ['live', 'cold'] as const;
export type MigrationStrategy = (typeof MIGRATION_STRATEGIES)[number];

/** The steps of the happy path, in order, for a strategy. */
export function happyPath(strategy: MigrationStrategy): MigrationState[] {
  return [
    'REQUESTED',
    'READY',
    'PREPARING_TARGET',
    'TRANSFERRING',
    'VERIFYING_DISK',
    'PREPARING_NETWORK',
    'STOPPING_SOURCE',
    'DEFINING_TARGET',
    ...(strategy === 'live' ? (['LIVE_MIGRATING'] as const) : []),
    'STARTING_TARGET',
    'VERIFYING_TARGET',
    'COMMITTING',
    'COMPLETED',
    'CLEANING_UP',
    'CLEANED_UP',
  ];
}

/**
 * The point of no return (DESIGN.md): the first step in which the guest runs on the target,
 * LIVE_MIGRATING for a live move, STARTING_TARGET for a cold one. Before it, a failure rolls back
 * and the untouched source stays authoritative; at or after it, the panel stops and waits for an
 * operator (RECOVERY_REQUIRED), and never restarts the source by itself.
 */
export const pointOfNoReturn = (strategy: MigrationStrategy): MigrationState =>
  strategy === 'live' ? 'LIVE_MIGRATING' : 'STARTING_TARGET';

export function isPastPointOfNoReturn(state: MigrationState, strategy: MigrationStrategy): boolean {
  const path = happyPath(strategy);
  const at = path.indexOf(state);
  if (state === 'RECOVERY_REQUIRED') return true;
  return at >= 0 && at >= path.indexOf(pointOfNoReturn(strategy));
}

export const TERMINAL_STATES: readonly MigrationState[] = ['CLEANED_UP', 'ROLLED_BACK'];

/**
 * Every allowed transition: SPEC.md's table, with the failure rows spelled out per state. Every
 * state at or after the point of no return fails into RECOVERY_REQUIRED, COMPLETED and
 * CLEANING_UP included (a cleanup of the old source that failed waits for an operator's retry).
 */
export function allowedNext(state: MigrationState, strategy: MigrationStrategy): MigrationState[] {
  const path = happyPath(strategy);
  const at = path.indexOf(state);
  if (state === 'ROLLING_BACK') return ['ROLLED_BACK'];
  if (state === 'RECOVERY_REQUIRED') {
    // An operator's decision: retry the failed step (back into a step at or after the point of
    // no return, or the cleanup of the old source after the commit), record the target as
    // authoritative (commit), or the source (rolled back).
    return [
      ...path.slice(path.indexOf(pointOfNoReturn(strategy)), path.indexOf('COMMITTING') + 1),
      'CLEANING_UP',
      'ROLLED_BACK',
    ];
  }
  if (at < 0 || TERMINAL_STATES.includes(state)) return [];
  const next = path[at + 1];
  const onFailure: MigrationState = isPastPointOfNoReturn(state, strategy)
    ? 'RECOVERY_REQUIRED'
    : 'ROLLING_BACK';
  return [...(next ? [next] : []), onFailure];
}

export function mayTransition(
  from: MigrationState,
  to: MigrationState,
  strategy: MigrationStrategy,
): boolean {
  return allowedNext(from, strategy).includes(to);
}

/**
 * The states a migration may be in when `to` is written: those the table allows before it, and
 * `to` itself (a bookkeeping step may run twice, and a state's detail is added to it later).
 */
export const statesBefore = (to: MigrationState, strategy: MigrationStrategy): MigrationState[] => [
  ...MIGRATION_STATES.filter((from) => mayTransition(from, to, strategy)),
  to,
];

/** A recovery decision of an operator (SPEC.md §4 `recover --mark`). */
export const RECOVERY_DECISIONS = ['retry', 'target_authoritative', 'source_authoritative'] as const;
export type RecoveryDecision = (typeof RECOVERY_DECISIONS)[number];
