import { pruneFinishedTasks } from '../db/repositories/agent-tasks.js';
import { markSilentHypervisorsUnreachable } from '../db/repositories/hypervisors.js';
import { pruneIdempotencyRecords } from '../db/repositories/idempotency.js';
import { pruneRollups } from '../db/repositories/metric-rollups.js';
import { pruneSamples } from '../db/repositories/metrics.js';
import type { ServiceDeps } from '../services/context.js';
import { reconcileOperations } from '../services/operations/reconcile.js';

/**
 * Periodic upkeep the worker does beside running workflows: hypervisors whose heartbeats stopped
 * are marked unreachable; operations whose workflow was never started, or whose run ended without
 * settling, are reconciled; metric samples and rollups, finished agent tasks and Idempotency-Key
 * records past their retention are deleted. Each sweep is idempotent, so several workers may run them side by side.
 */
export function startSweepers(deps: ServiceDeps): () => void {
  const { db, config, logger } = deps;
  const every = (ms: number, name: string, sweep: () => Promise<void>) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      sweep()
        .catch((error: unknown) => logger.warn(`${name} sweep failed`, { error }))
        .finally(() => {
          running = false;
        });
    }, ms);
    timer.unref();
    return () => clearInterval(timer);
  };

  const stops = [
    every(
      Math.max(500, Math.floor(config.HYPERVISOR_UNREACHABLE_AFTER_MS / 4)),
      'hypervisor liveness',
      async () => {
        const silent = await markSilentHypervisorsUnreachable(db, config.HYPERVISOR_UNREACHABLE_AFTER_MS);
        for (const id of silent)
          logger.warn('hypervisor unreachable: heartbeats stopped', { hypervisor_id: id });
      },
    ),
    every(
      Math.max(500, Math.floor(config.OPERATION_RECONCILE_AFTER_MS / 2)),
      'operation reconciliation',
      async () => {
        await reconcileOperations(deps);
      },
    ),
    every(10 * 60 * 1000, 'retention', async () => {
      const samples = await pruneSamples(db, config.METRICS_RETENTION_HOURS);
      const rollups =
        (await pruneRollups(db, '5m', config.METRICS_5M_RETENTION_DAYS)) +
        (await pruneRollups(db, '1h', config.METRICS_1H_RETENTION_DAYS));
      const tasks = await pruneFinishedTasks(db, config.AGENT_TASK_RETENTION_HOURS);
      const idempotencyKeys = await pruneIdempotencyRecords(db, config.IDEMPOTENCY_RETENTION_HOURS);
      if (samples + rollups + tasks + idempotencyKeys > 0)
        logger.info('retention applied', { samples, rollups, tasks, idempotency_keys: idempotencyKeys });
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
