import type { BeginResult } from '../../db/repositories/instances/instance-operations.js';
import { ApiError } from '../../domain/errors.js';
import type { Finding } from '../../domain/moves/preflight.js';
import type { ServiceDeps } from '../context.js';
import { launchOperation, type PlannedOperation } from '../instances/operations.js';
import type { WorkflowType } from '../workflow-starts.js';

/**
 * A move request the preflight blocks: `INSTANCE_MIGRATING` when another move holds the instance,
 * otherwise `MIGRATION_BLOCKED` naming every blocker. Nothing was written.
 */
export function refuseBlocked(noun: string, blockers: readonly Finding<string>[]): never {
  const codes = blockers.map((b) => b.code);
  if (codes.includes('INSTANCE_MIGRATING')) throw new ApiError('INSTANCE_MIGRATING');
  throw new ApiError('MIGRATION_BLOCKED', {
    detail: `The ${noun} is blocked: ${codes.join(', ')}. Run the preflight for details.`,
  });
}

/**
 * Starts a recorded move's run, after the commit. A start refused now (the workflow service does
 * not answer) refuses the request as every other write does: 503, the operation abandoned and the
 * move ended unstarted (`endUnstarted`: ROLLED_BACK, what it held given back). A start lost to a
 * crash after this point is made by the reconciler from the recorded input.
 */
export async function launchMove<W extends WorkflowType>(
  deps: ServiceDeps,
  recorded: { plan: PlannedOperation<W>; begun: Extract<BeginResult, { begun: true }> },
  endUnstarted: () => Promise<void>,
): Promise<void> {
  try {
    await launchOperation(deps, recorded.plan, recorded.begun, 'revert');
  } catch (error) {
    if (error instanceof ApiError && error.code === 'SVC-SYS-503') await endUnstarted();
    throw error;
  }
}
