import { ApplicationFailure } from '@temporalio/workflow';
import type { MigrationState } from '../../domain/migrations/states.js';

export interface Step {
  readonly state: MigrationState;
  /** What the step found out, added to its state's history line. */
  readonly run: () => Promise<Record<string, unknown> | undefined>;
}

/** A check of a step that failed: the migration's failure code, as an agent's would be. */
export const stepFailure = (type: string, message: string) =>
  ApplicationFailure.create({ type, message, nonRetryable: true });
