import type { Logger } from '../platform/logger.js';

interface StepRun {
  readonly taskId: string;
  /** Stops this run: the panel has superseded its task. */
  readonly stop: AbortController;
  readonly ended: Promise<void>;
}

/**
 * One run per step at a time on this hypervisor. A task offered again while this agent still runs
 * it (its lease lapsed while the panel could not hear the reports) is not started twice: the run
 * goes on, and its reports renew the lease. A task of a step this agent runs under an earlier
 * task is a retried attempt that superseded it: the earlier run is stopped, and the new one
 * starts only once it has ended, so that the two never touch the hypervisor at once. Without
 * this, the new attempt started the moment it was offered, while the old one learned of its end
 * only from the answer to its next report.
 */
export class RunningSteps {
  readonly #runs = new Map<string, StepRun>();

  constructor(private readonly logger: Logger) {}

  /** Runs `work` for the task unless it already runs here; `signal` ends with `shutdown` or a superseding task. */
  async run(
    task: { readonly task_id: string; readonly step: string },
    shutdown: AbortSignal,
    work: (signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    const earlier = this.#runs.get(task.step);
    if (earlier?.taskId === task.task_id) {
      this.logger.info('task already running here', { task_id: task.task_id });
      return;
    }
    if (earlier) {
      this.logger.info('task superseded: stopping its run', { task_id: earlier.taskId, by: task.task_id });
      earlier.stop.abort();
    }
    const stop = new AbortController();
    const ended = (async () => {
      await earlier?.ended;
      if (!stop.signal.aborted && !shutdown.aborted) await work(AbortSignal.any([shutdown, stop.signal]));
    })().finally(() => {
      if (this.#runs.get(task.step)?.ended === ended) this.#runs.delete(task.step);
    });
    this.#runs.set(task.step, { taskId: task.task_id, stop, ended });
    await ended;
  }
}
