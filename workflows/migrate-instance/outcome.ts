import {
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  condition,
  patched,
} from '@temporalio/workflow';
import { PATCHES } from '../lib/patches.js';

export interface RolledBack {
  /** The failure's code (an agent's or the catalogue's), or CANCELLED / ROLLED_BACK_BY_OPERATOR. */
  readonly code: string;
  readonly message: string;
  /** Ended by an administrator's cancel. */
  readonly cancelled: boolean;
}

/**
 * How a run that ended ROLLED_BACK tells it in Temporal's own status: cancelled when a cancel ended
 * it (the service asks Temporal to cancel the run once the cancel is accepted; it is awaited a
 * moment), otherwise failed, with the failure's code as the failure's type, so that the Temporal
 * UI shows it red with the code. The migration's record says the same (its state and failure).
 * Runs begun before this returned ROLLED_BACK as a result, and still do.
 */
export async function endRolledBack(
  ending: RolledBack,
  cancelRequested: () => boolean,
): Promise<{ state: 'ROLLED_BACK' }> {
  if (!patched(PATCHES.migrationOutcomeInStatus.id)) return { state: 'ROLLED_BACK' };
  if (ending.cancelled && !cancelRequested())
    await CancellationScope.nonCancellable(() => condition(cancelRequested, '30 seconds'));
  if (cancelRequested()) throw new CancelledFailure(`ROLLED_BACK: ${ending.message}`);
  throw ApplicationFailure.create({
    type: ending.code,
    message: `ROLLED_BACK: ${ending.message}`,
    nonRetryable: true,
    details: [{ state: 'ROLLED_BACK' }],
  });
}

/** Whether Temporal was asked to cancel the run (an administrator's cancel, or the Temporal UI's). */
export function watchCancellation(): () => boolean {
  let requested = false;
  CancellationScope.current().cancelRequested.catch(() => {
    requested = true;
  });
  return () => requested;
}
