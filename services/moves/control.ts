import type { UpdateDefinition } from '@temporalio/common';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError, type Verdict } from '../../domain/errors.js';
import type { RecoveryDecision } from '../../domain/moves/states.js';
import type { RecoveryRequest, UndoRequest } from '../../workflows/lib/moves/controls.js';
import type { ServiceDeps } from '../context.js';
import { apiErrorOfUpdate } from '../workflow-failures.js';

// An administrator's word to a running move of any kind (SPEC.md §4 cancel, rollback, recover): the
// domain verdict asked first, then the run's validated update, which asks the same rule against the
// run's own state and is the authority; a refusal changes nothing.

export function refuseUnless(verdict: Verdict): void {
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
}

/** The run a request goes to: a move's own, or one its kind finds (a committed migration's cleanup). */
type RunOf = string | ((deps: ServiceDeps) => Promise<string>);

async function sendUpdate<A>(
  deps: ServiceDeps,
  run: RunOf,
  update: UpdateDefinition<unknown, [A]>,
  request: A,
): Promise<void> {
  try {
    const workflowId = typeof run === 'string' ? run : await run(deps);
    await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.workflow.getHandle(workflowId).executeUpdate(update, { args: [request] }),
    );
  } catch (error) {
    throw apiErrorOfUpdate(error);
  }
}

/**
 * Cancels or rolls back a move: the run stops its current step and undoes what it did, in reverse.
 * A cancel also ends the run as cancelled in Temporal's own status: the run, rolled back, waits a
 * moment for this request (workflows/lib/moves/endings.ts); without it, it ends failed.
 */
export async function undoMove(
  deps: ServiceDeps,
  actor: Actor,
  move: { workflowId: string; verdict: Verdict; update: UpdateDefinition<unknown, [UndoRequest]> },
  request: { kind: UndoRequest['kind']; reason: string },
): Promise<void> {
  refuseUnless(move.verdict);
  await sendUpdate(deps, move.workflowId, move.update, { ...request, actor: actorName(actor) });
  if (request.kind !== 'cancel') return;
  await deps.temporal
    .withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
      deps.temporal.workflow.getHandle(move.workflowId).cancel(),
    )
    .catch((error: unknown) =>
      deps.logger.warn('could not mark a cancelled move’s run as cancelled', {
        workflow_id: move.workflowId,
        error,
      }),
    );
}

/** Records an operator's decision on a move in RECOVERY_REQUIRED; the run acts on it. */
export async function decideMove(
  deps: ServiceDeps,
  actor: Actor,
  move: { run: RunOf; verdict: Verdict; update: UpdateDefinition<unknown, [RecoveryRequest]> },
  request: { decision: RecoveryDecision; reason: string },
): Promise<void> {
  refuseUnless(move.verdict);
  await sendUpdate(deps, move.run, move.update, { ...request, actor: actorName(actor) });
}
