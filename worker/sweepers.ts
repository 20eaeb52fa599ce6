import { pruneIdempotencyRecords } from '../db/repositories/accounts/idempotency.js';
import { pruneRelayedEvents } from '../db/repositories/events/outbox.js';
import { pruneFinishedTasks } from '../db/repositories/hypervisors/agent-task-queue.js';
import { markSilentHypervisorsUnreachable } from '../db/repositories/hypervisors/hypervisors.js';
import { pruneRollups } from '../db/repositories/metrics/metric-rollups.js';
import { pruneSamples } from '../db/repositories/metrics/metrics.js';
import { USAGE_SWEEP_INTERVAL_MS } from '../domain/usage/hours.js';
import type { ServiceDeps } from '../services/context.js';
import { fetchOwedImages } from '../services/images/catch-up.js';
import { retryStaleImageRemovals } from '../services/images/removals.js';
import { wakeStaleReverseDns } from '../services/networks/reverse-dns-sweep.js';
import { reconcileOperations } from '../services/operations/reconcile.js';
import { closeEndedHours } from '../services/usage/close-hours.js';
import { relayEvents } from '../services/webhooks/relay.js';

/**
 * Periodic upkeep the worker does beside running workflows: hypervisors whose heartbeats stopped
 * are marked unreachable; operations whose workflow was never started, or whose run ended without
 * settling, are reconciled; metric samples and rollups, finished agent tasks, Idempotency-Key
 * records and relayed events past their retention are deleted; committed events are relayed from
 * the outbox to their webhook deliveries; locations whose reverse DNS publishing was never woken
 * (the wake lost) are woken; image copies nobody has worked on for IMAGE_COPY_RETRY_AFTER_MS on
 * online hypervisors are asked for again: a deleted version's, to be removed; a version's owed to
 * a host (missing or pending), to be fetched; every usage hour that has ended is closed into its
 * records (docs/usage.md "Closing"), once whichever worker gets it. Each sweep is idempotent, so several workers may run
 * them side by side.
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
    every(Math.max(500, Math.floor(config.RDNS_SWEEP_AFTER_MS / 2)), 'reverse DNS', async () => {
      const woken = await wakeStaleReverseDns(deps);
      if (woken.length > 0)
        logger.info('reverse DNS publishing woken by the sweep', { locations: woken.length });
    }),
    every(Math.max(500, Math.floor(config.IMAGE_COPY_RETRY_AFTER_MS / 2)), 'image copies', async () => {
      const removals = await retryStaleImageRemovals(deps);
      if (removals > 0) logger.info('image removals asked again by the sweep', { removals });
      const hypervisors = await fetchOwedImages(deps);
      if (hypervisors > 0) logger.info('owed image copies fetched by the sweep', { hypervisors });
    }),
    every(USAGE_SWEEP_INTERVAL_MS, 'usage hours', async () => {
      const closed = await closeEndedHours(deps);
      if (closed.length > 0)
        logger.info('usage hours closed', { hours: closed.length, last: closed.at(-1)?.toISOString() });
    }),
    every(config.WEBHOOK_RELAY_INTERVAL_MS, 'outbox relay', async () => {
      await relayEvents(deps);
    }),
    every(10 * 60 * 1000, 'retention', async () => {
      const samples = await pruneSamples(db, config.METRICS_RETENTION_HOURS);
      const rollups =
        (await pruneRollups(db, '5m', config.METRICS_5M_RETENTION_DAYS)) +
        (await pruneRollups(db, '1h', config.METRICS_1H_RETENTION_DAYS));
      const tasks = await pruneFinishedTasks(db, config.AGENT_TASK_RETENTION_HOURS);
      const idempotencyKeys = await pruneIdempotencyRecords(db, config.IDEMPOTENCY_RETENTION_HOURS);
      const events = await pruneRelayedEvents(db, config.EVENT_RETENTION_DAYS);
      if (samples + rollups + tasks + idempotencyKeys + events > 0)
        logger.info('retention applied', {
          samples,
          rollups,
          tasks,
          idempotency_keys: idempotencyKeys,
          events,
        });
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
