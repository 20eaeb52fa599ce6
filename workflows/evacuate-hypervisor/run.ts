import {
  allHandlersFinished,
  CancellationScope,
  ChildWorkflowCancellationType,
  condition,
  ParentClosePolicy,
  setCurrentDetails,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { EvacuationCheck, NextMove } from '../../domain/evacuations/moves.js';
import type { EvacuateHypervisorInput, EvacuationRunState } from '../../domain/evacuations/run-input.js';
import { type EvacuationControl, mayControl } from '../../domain/evacuations/states.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { businessFailure } from '../lib/failures.js';
import { bookkeeping } from '../lib/steps.js';
import { cancelEvacuation, evacuationProgress, pauseEvacuation, resumeEvacuation } from './definitions.js';

/**
 * What one evacuation run knows while it runs: its state (the authority its update validators
 * ask), what it last read of its migrations, and whether something happened that the loop should
 * look at (a child ended, an administrator acted).
 */
export class EvacuationRun {
  state: EvacuationRunState;
  /** The state last written to the evacuation's record. */
  recorded: EvacuationRunState;
  started = 0;
  last: EvacuationCheck | undefined;
  woken = false;
  readonly books = bookkeeping();

  constructor(readonly input: EvacuateHypervisorInput) {
    this.state = input.carried?.state ?? 'running';
    this.recorded = this.state;
  }

  readonly wake = (): void => {
    this.woken = true;
  };

  /** The administrator's pause, resume and cancel; a cancel in the Temporal UI is a cancel too. */
  installHandlers(): void {
    setHandler(evacuationProgress, () => ({ state: this.state, started: this.started, ...this.last }));
    setHandler(pauseEvacuation, (_request) => this.change('paused'), {
      validator: (_request) => this.refuseUnless('pause'),
    });
    setHandler(resumeEvacuation, (_request) => this.change('running'), {
      validator: (_request) => this.refuseUnless('resume'),
    });
    setHandler(cancelEvacuation, (_request) => this.change('cancelling'), {
      validator: (_request) => this.refuseUnless('cancel'),
    });
    CancellationScope.current().cancelRequested.catch(() => {
      // Outside the cancelled scope: its wait for the loop's write must not be cancelled too.
      if (this.state !== 'cancelling') void CancellationScope.nonCancellable(() => this.change('cancelling'));
    });
  }

  private refuseUnless(control: EvacuationControl): void {
    const verdict = mayControl(this.state, control);
    if (!verdict.ok) throw businessFailure(verdict.code, verdict.detail);
  }

  /**
   * An administrator's change: taken at once (the loop sees it), answered once the loop recorded
   * it. Only the loop writes, one step after another, so a replay meets the same steps in the same
   * order whenever the request came.
   */
  async change(to: EvacuationRunState): Promise<{ state: EvacuationRunState }> {
    this.state = to;
    this.wake();
    await condition(() => this.recorded === to || this.state !== to);
    return { state: this.state };
  }

  /** Lets every administrator's request be recorded and answered (each waits on the loop's write). */
  async settleHandlers(): Promise<void> {
    for (;;) {
      await this.record();
      if (allHandlersFinished()) return;
      await condition(() => allHandlersFinished() || this.recorded !== this.state);
    }
  }

  /** Writes the state the run is in, if it changed since it was last written. */
  async record(): Promise<void> {
    const to = this.state;
    if (this.recorded === to) return;
    await this.books.recordEvacuationState({
      evacuationId: this.input.evacuationId,
      from: [this.recorded],
      to,
    });
    this.recorded = to;
  }

  /**
   * Starts a recorded move as a child. It outlives this run (continue-as-new, the evacuation's
   * end) and is never cancelled through it: the evacuation's cancel asks each migration to roll
   * back the way an administrator would, which a migration past its point of no return refuses.
   * A run already there was started by the reconciler from the same record; the checks follow it.
   */
  async startMove(move: Extract<NextMove, { kind: 'started' }>): Promise<void> {
    this.started++;
    try {
      // Moves recorded before backends were drained say no type: they are migrations.
      const child = await startChild(move.workflowType ?? 'migrateInstance', {
        workflowId: move.workflowId,
        args: [move.input] as never,
        parentClosePolicy: ParentClosePolicy.ABANDON,
        cancellationType: ChildWorkflowCancellationType.ABANDON,
        searchAttributes: {
          [SEARCH_ATTRIBUTES.instance]: [move.instanceId],
          [SEARCH_ATTRIBUTES.hypervisor]: [this.input.hypervisorId],
          [SEARCH_ATTRIBUTES.operation]: [
            move.workflowType === 'moveInstanceStorage' ? 'move_storage' : 'migrate',
          ],
        },
        memo: { correlation_id: workflowInfo().workflowId },
      });
      child.result().then(this.wake, this.wake);
    } catch (error) {
      if (!(error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError')) throw error;
    }
  }

  show(check: EvacuationCheck): void {
    this.last = check;
    setCurrentDetails(
      `**Evacuation:** ${this.state}; ${check.migrating} migrating, ${check.awaitingRecovery} awaiting recovery, ` +
        `${check.pending} waiting; ${this.started} started by this run`,
    );
  }
}
