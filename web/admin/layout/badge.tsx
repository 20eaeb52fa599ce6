import type { MigrationState } from '../../../domain/migrations/states.js';

/** The tone of each state: under way, done, undone, or waiting for an operator. */
const TONE: Record<MigrationState, 'active' | 'done' | 'undone' | 'alarm'> = {
  REQUESTED: 'active',
  READY: 'active',
  PREPARING_TARGET: 'active',
  TRANSFERRING: 'active',
  VERIFYING_DISK: 'active',
  PREPARING_NETWORK: 'active',
  STOPPING_SOURCE: 'active',
  DEFINING_TARGET: 'active',
  LIVE_MIGRATING: 'active',
  STARTING_TARGET: 'active',
  VERIFYING_TARGET: 'active',
  COMMITTING: 'active',
  COMPLETED: 'done',
  CLEANING_UP: 'done',
  CLEANED_UP: 'done',
  ROLLING_BACK: 'undone',
  ROLLED_BACK: 'undone',
  RECOVERY_REQUIRED: 'alarm',
};

/** A state as a badge: its name is its label, the colour only repeats it. */
export const StateBadge = (props: { state: MigrationState }) => (
  <span class={`badge ${TONE[props.state]}`}>{props.state}</span>
);
