import { CancellationScope } from '@temporalio/workflow';
import { awaitRecovery } from './recovery.js';
import type { MoveRun, MoveStep, RecoveryRequest } from './run.js';

/** What a kind brings to the runbook besides its steps: where it turns, and how it ends giving the old side back. */
export interface MoveKind<S extends string, E> {
  isPastPointOfNoReturn(state: S): boolean;
  /**
   * Whether a failure of `state` left the old side authoritative (roll back), for a kind whose
   * point of no return lies inside a step (a live migration's switchover): it may ask the
   * hypervisors. Absent: before the point of no return.
   */
  failedBeforeTheTurn?(state: S, error: unknown): Promise<boolean>;
  /** A failure (or an administrator's undo) before the point of no return: the rollback, and the run's end. */
  rollBack(failedStep: S, error: unknown): Promise<E>;
  /**
   * An operator's source_authoritative: the new side thrown away and the move ended ROLLED_BACK, or
   * `refused` with why, where what it takes was not carried out (the hypervisor refused it): the
   * move then waits for the next decision, as it was.
   */
  keepTheSource(decision: RecoveryRequest, error: unknown): Promise<{ ended: E } | { refused: unknown }>;
}

/**
 * The runbook every move follows (SPEC.md §3, DESIGN.md): the kind's steps in order, each pushing
 * its undo as it succeeds. Before the point of no return a failure (or an administrator's cancel or
 * rollback) rolls back in reverse and the old side stays authoritative. At or after it, the run
 * waits in RECOVERY_REQUIRED for an operator's decision (retry the step, the new side is
 * authoritative: the commit, or the old side is) and never decides by itself; a decision not
 * carried out leaves it waiting for the next. Returns the ending's value, or undefined once every
 * step is done.
 */
export async function runSteps<S extends string, E>(
  run: MoveRun<S>,
  steps: readonly MoveStep<S>[],
  kind: MoveKind<S, E>,
): Promise<E | undefined> {
  for (let index = 0; index < steps.length; ) {
    const step = steps[index]!;
    try {
      const detail = await run.forward.run(async () => {
        run.checkLease();
        // The cleanup step enters its state itself, after the retention window.
        if (step.state !== 'CLEANING_UP' && step.state !== run.state) await run.enter(step.state);
        return step.run();
      });
      if (detail) await run.annotate(step.state, detail);
      index++;
    } catch (error) {
      if (!run.committed && (await beforeTheTurn(kind, step.state, error)))
        return await kind.rollBack(step.state, error);
      const next = await decide(run, step.state, error, kind);
      if ('ended' in next) return next.ended;
      if (next.decision === 'target_authoritative') index = steps.findIndex((s) => s.state === 'COMMITTING');
    }
  }
  return undefined;
}

function beforeTheTurn<S extends string, E>(kind: MoveKind<S, E>, state: S, error: unknown) {
  if (kind.failedBeforeTheTurn) return kind.failedBeforeTheTurn(state, error);
  return !kind.isPastPointOfNoReturn(state);
}

/** Decisions until one is carried out: a retry or the commit goes on with the steps; the old side ends the move. */
async function decide<S extends string, E>(
  run: MoveRun<S>,
  failedStep: S,
  error: unknown,
  kind: MoveKind<S, E>,
): Promise<{ ended: E } | RecoveryRequest> {
  for (let failure = error; ; ) {
    const decision = await awaitRecovery(run, failedStep, failure);
    if (decision.decision !== 'source_authoritative') return decision;
    // A decision taken is carried out whole, or refused whole: nothing cancels it half-way.
    const kept = await CancellationScope.nonCancellable(() => kind.keepTheSource(decision, error));
    if ('ended' in kept) return kept;
    failure = kept.refused;
  }
}
