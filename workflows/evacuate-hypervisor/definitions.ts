import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { EvacuationCheck } from '../../domain/evacuations/moves.js';
import type { EvacuationRunState } from '../../domain/evacuations/run-input.js';

/**
 * How the panel talks to a running evacuation: validated Temporal Updates, so a refused request
 * (resume of a running one, anything once it ends) is refused by the run that knows its state, and
 * an accepted one is recorded before the answer.
 */
export interface EvacuationControlRequest {
  readonly actor: string;
  readonly reason?: string;
}

export const pauseEvacuation = defineUpdate<{ state: EvacuationRunState }, [EvacuationControlRequest]>(
  'pauseEvacuation',
);
export const resumeEvacuation = defineUpdate<{ state: EvacuationRunState }, [EvacuationControlRequest]>(
  'resumeEvacuation',
);
export const cancelEvacuation = defineUpdate<{ state: EvacuationRunState }, [EvacuationControlRequest]>(
  'cancelEvacuation',
);

/** The run's state and what it last read of its migrations. */
export const evacuationProgress = defineQuery<
  { state: EvacuationRunState; started: number } & Partial<EvacuationCheck>
>('evacuationProgress');
