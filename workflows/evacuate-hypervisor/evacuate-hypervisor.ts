import { CancellationScope, condition, continueAsNew, uuid4, workflowInfo } from '@temporalio/workflow';
import type { EvacuationReport } from '../../domain/evacuations/moves.js';
import type { EvacuateHypervisorInput } from '../../domain/evacuations/run-input.js';
import { EvacuationRun } from './run.js';

/**
 * Runbook of an evacuation (DESIGN.md "Evacuation, storage moves"): a sliding window of migrations
 * out of the node, each run as a child `migrateInstance`. Each round it reads what its migrations
 * did (the database is the authority: a move ended, failed, or waits for an operator), settles
 * them by the policy, then starts moves while the window has room, the per-target limits are met
 * and it is not paused or cancelled. It sleeps until a child ends, an administrator acts, or the
 * next check is due. After `movesPerRun` moves it continues as new, its children running on, so
 * a node of any size keeps a small history. It ends when nothing is under way and nothing waits
 * (or it is cancelled), with the report of what moved and what did not, and why.
 */
export async function evacuateHypervisor(input: EvacuateHypervisorInput): Promise<EvacuationReport> {
  const run = new EvacuationRun(input);
  run.installHandlers();
  const { evacuationId } = input;
  return CancellationScope.nonCancellable(async () => {
    for (;;) {
      // Anything after this (a child's end, an administrator) wakes the wait below.
      run.woken = false;
      const check = await run.books.checkEvacuationMoves({ evacuationId });
      if (check.pause && run.state === 'running') run.state = 'paused';
      await run.record();
      run.show(check);
      const underWay = check.migrating + check.awaitingRecovery;
      if (underWay === 0 && (check.pending === 0 || run.state === 'cancelling')) break;

      let window = check.migrating;
      let nothingLeft = false;
      while (run.state === 'running' && window < input.policy.maxParallel && check.pending > 0) {
        const next = await run.books.beginEvacuationMove({ evacuationId, migrationId: uuid4() });
        if (next.kind !== 'started') {
          nothingLeft = next.kind === 'none';
          break;
        }
        await run.startMove(next);
        window++;
      }
      await run.record();
      // Every instance left was judged unmovable: the next check ends the run.
      if (nothingLeft && window === 0 && check.awaitingRecovery === 0) continue;

      if (run.started >= input.movesPerRun || workflowInfo().continueAsNewSuggested) {
        await run.settleHandlers();
        return continueAsNew<typeof evacuateHypervisor>({ ...input, carried: { state: run.state } });
      }
      // Paused with nothing under way, only an administrator wakes it.
      const idle = run.state === 'paused' && window === 0 && check.awaitingRecovery === 0;
      if (idle) await condition(() => run.woken);
      else await condition(() => run.woken, input.checkEveryMs);
    }
    await run.settleHandlers();
    return run.books.finishEvacuation({ evacuationId, cancelled: run.state === 'cancelling' });
  });
}
