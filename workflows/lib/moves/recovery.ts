import { CancellationScope, condition, setCurrentDetails } from '@temporalio/workflow';
import { describeFailure } from '../failures.js';
import type { MoveRun, RecoveryRequest } from './run.js';

/**
 * At or after the point of no return: the run enters RECOVERY_REQUIRED and waits, for as long as
 * it takes, for an operator's decision, which it records and returns. It never gives the old side
 * back, nor makes the new one authoritative, by itself.
 */
export async function awaitRecovery<S extends string>(
  run: MoveRun<S>,
  failedStep: S,
  error: unknown,
): Promise<RecoveryRequest> {
  const failure = describeFailure(error);
  await CancellationScope.nonCancellable(() =>
    run.enter('RECOVERY_REQUIRED', { detail: { failed_step: failedStep, ...failure }, failedStep, failure }),
  );
  setCurrentDetails(
    `**${run.shown.label}:** RECOVERY_REQUIRED — ${failedStep} failed: ${failure.code}. Waiting for an operator.`,
  );
  await condition(() => run.recovery !== undefined);
  const decision = run.recovery!;
  run.recovery = undefined;
  const by = { decision: decision.decision, reason: decision.reason, by: decision.actor };
  await run.write('RECOVERY_REQUIRED', { detail: by, recovery: { ...by, failed_step: failedStep } });
  return decision;
}
