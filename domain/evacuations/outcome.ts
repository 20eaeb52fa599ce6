import type { MigrationState } from '../migrations/states.js';
import type { StorageMoveState } from '../storage-moves/states.js';
import type { EvacuationItemState, EvacuationPolicy } from './states.js';

/** What an evacuation reads of one of its moves. */
export interface MoveFacts {
  /** A migration's, or a storage move's: the states that decide share their names. */
  readonly state: MigrationState | StorageMoveState;
  readonly failedStep: string | null;
  readonly failure: { readonly code?: string; readonly message?: string } | null;
  /** The migration's instance operation: `running` while its run holds the instance. */
  readonly operationState: string | null;
  /** The instance's tries so far, this move included. */
  readonly attempts: number;
}

export interface ItemVerdict {
  readonly state: EvacuationItemState;
  readonly reasons?: { code: string; detail: string }[];
  /** A failure under the `pause` policy pauses the evacuation. */
  readonly pause?: boolean;
}

const COMMITTED: readonly string[] = ['COMPLETED', 'CLEANING_UP', 'CLEANED_UP'];

/**
 * Where an evacuation's instance stands after what its migration did. Committed (the target is
 * authoritative; a failed cleanup of the old copy changes nothing for the node's instances) is
 * moved. Rolled back (the source stayed authoritative) is a failure, which the policy retries,
 * skips or pauses on. Waiting for an operator holds the instance, outside the parallelism. A run
 * that vanished before it settled (terminated in Temporal; its operation abandoned) is a failure.
 * While the evacuation is cancelled, a move that did not happen leaves the instance where it is
 * (`cancelled`). Otherwise the move goes on.
 */
export function itemAfterMove(move: MoveFacts, policy: EvacuationPolicy, cancelling: boolean): ItemVerdict {
  if (
    COMMITTED.includes(move.state) ||
    (move.state === 'RECOVERY_REQUIRED' && move.failedStep === 'CLEANING_UP')
  )
    return { state: 'moved', reasons: [] };
  if (move.state === 'RECOVERY_REQUIRED')
    return {
      state: 'recovery_required',
      reasons: [
        {
          code: 'RECOVERY_REQUIRED',
          detail: `The migration failed in ${move.failedStep}; it waits for an operator.`,
        },
      ],
    };
  const failed = move.state === 'ROLLED_BACK' || move.operationState === 'abandoned';
  if (!failed) return { state: 'migrating' };
  const reasons = [
    {
      code: move.failure?.code ?? (move.state === 'ROLLED_BACK' ? 'ROLLED_BACK' : 'ABANDONED'),
      detail: move.failure?.message ?? 'The migration ended without moving the instance.',
    },
  ];
  // The evacuation's cancel rolled it back, or it failed while the evacuation ends: left where it is.
  if (cancelling) return { state: 'cancelled', reasons };
  if (policy.onFailure === 'retry' && move.attempts < policy.maxAttempts)
    return { state: 'pending', reasons };
  return { state: 'failed', reasons, ...(policy.onFailure === 'pause' ? { pause: true } : {}) };
}
