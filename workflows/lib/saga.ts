import { CancellationScope, log, setCurrentDetails } from '@temporalio/workflow';

export interface CompensationReport {
  readonly ran: number;
  readonly failed: readonly { step: string; message: string }[];
}

/**
 * Compensations of a runbook: each successful step pushes the one that undoes it; on failure they
 * run in reverse order in a non-cancellable scope (a cancelled workflow still cleans up), and a
 * compensation that fails is reported while the rest still run.
 */
export class Saga {
  readonly #steps: { step: string; undo: () => Promise<unknown> }[] = [];

  /** Pushed right after `step` succeeded. */
  push(step: string, undo: () => Promise<unknown>): void {
    this.#steps.push({ step, undo });
  }

  async compensate(): Promise<CompensationReport> {
    return CancellationScope.nonCancellable(async () => {
      const failed: { step: string; message: string }[] = [];
      const steps = this.#steps.splice(0).reverse();
      for (const { step, undo } of steps) {
        setCurrentDetails(`Compensating: ${step}`);
        try {
          await undo();
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log.warn('compensation failed', { step, message });
          failed.push({ step, message });
        }
      }
      return { ran: steps.length, failed };
    });
  }
}
