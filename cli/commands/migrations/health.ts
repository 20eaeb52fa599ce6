import { parseArgs } from 'node:util';
import { findMigrationHealth } from '../../../db/repositories/moves/migration-health.js';
import type { ServiceDeps } from '../../../services/context.js';
import { type Command, EXIT } from '../../command.js';
import { counted } from '../../words.js';

// Temporal's enum values (temporal.api.enums.v1): a normal task queue, its workflow and activity sides.
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE = { workflow: 1, activity: 2 } as const;
/**
 * An idle worker polls again at least once a minute (the server ends a long poll after one);
 * Temporal keeps a gone poller listed for minutes, so only a recent one counts.
 */
const POLLER_FRESH_MS = 2 * 60_000;

type Side = keyof typeof TASK_QUEUE_TYPE;

/** Whether workers poll the task queue: recent pollers on its workflow and its activity side. */
async function workerReachability(deps: ServiceDeps) {
  const queue = deps.config.TEMPORAL_TASK_QUEUE;
  try {
    const pollers = async (side: Side) => {
      const answer = await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
        deps.temporal.workflowService.describeTaskQueue({
          namespace: deps.config.TEMPORAL_NAMESPACE,
          taskQueue: { name: queue, kind: TASK_QUEUE_KIND_NORMAL },
          taskQueueType: TASK_QUEUE_TYPE[side],
        }),
      );
      const now = Date.now();
      return (answer.pollers ?? []).filter((p) => {
        const seconds = Number(p.lastAccessTime?.seconds ?? 0);
        return now - seconds * 1000 < POLLER_FRESH_MS;
      }).length;
    };
    const workflow = await pollers('workflow');
    const activity = await pollers('activity');
    return {
      task_queue: queue,
      reachable: workflow > 0 && activity > 0,
      workflow_pollers: workflow,
      activity_pollers: activity,
      error: null,
    };
  } catch (error) {
    return {
      task_queue: queue,
      reachable: false,
      workflow_pollers: 0,
      activity_pollers: 0,
      error: `Temporal did not answer: ${(error as Error).message}`,
    };
  }
}

/**
 * SPEC.md §4: migration health for operators and monitors. Unhealthy (exit 1) when no worker
 * polls the task queue, a migration waits in RECOVERY_REQUIRED, one has not changed state for longer
 * than MIGRATION_LONG_TRANSFER_S, or a lease expired without being released (its run is gone).
 */
export const migrationHealthCommand: Command = {
  name: 'cloudsvc:migration:health',
  summary: 'Report migration health: stuck migrations, expired leases, RECOVERY_REQUIRED, workers',
  usage: 'cloudsvc:migration:health [--json]',
  async run(argv, ctx) {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false } } });
    const deps = await ctx.services();
    const stuckAfterMs = deps.config.MIGRATION_LONG_TRANSFER_S * 1000;
    const [found, worker] = await Promise.all([
      findMigrationHealth(deps.db, stuckAfterMs),
      workerReachability(deps),
    ]);
    const recoveryRequired = found.byState.RECOVERY_REQUIRED ?? 0;
    const healthy =
      worker.reachable &&
      recoveryRequired === 0 &&
      found.stuck.length === 0 &&
      found.expiredLeases.length === 0;
    const report = {
      healthy,
      worker,
      recovery_required: recoveryRequired,
      stuck_after_seconds: deps.config.MIGRATION_LONG_TRANSFER_S,
      stuck: found.stuck.map((s) => ({ uuid: s.id, state: s.state, since: s.updated_at.toISOString() })),
      expired_leases: found.expiredLeases.map((l) => ({
        instance_uuid: l.instance_id,
        // The key scripts read; a storage move's lease names the move here too.
        migration_uuid: l.move_id,
        holder: l.holder,
        expired_at: l.expires_at.toISOString(),
      })),
      by_state: found.byState,
    };
    if (values.json) {
      ctx.out(JSON.stringify(report));
    } else {
      ctx.out(`Migration health: ${healthy ? 'healthy' : 'UNHEALTHY'}`);
      ctx.out(
        worker.reachable
          ? `  workers            polling ${worker.task_queue}: ${counted(worker.workflow_pollers, 'workflow poller')}, ${counted(worker.activity_pollers, 'activity poller')}`
          : `  workers            NONE polling ${worker.task_queue}${worker.error ? ` (${worker.error})` : ''}`,
      );
      ctx.out(`  recovery required  ${recoveryRequired}`);
      ctx.out(
        `  stuck              ${report.stuck.length} (no state change for over ${report.stuck_after_seconds} s)`,
      );
      for (const s of report.stuck) ctx.out(`    ${s.uuid}  ${s.state} since ${s.since}`);
      ctx.out(`  expired leases     ${report.expired_leases.length}`);
      for (const l of report.expired_leases)
        ctx.out(`    instance ${l.instance_uuid}: ${l.holder}, expired ${l.expired_at}`);
      const states = Object.entries(found.byState);
      ctx.out(
        `  by state           ${states.length ? states.map(([s, n]) => `${s} ${n}`).join(', ') : 'no migrations'}`,
      );
    }
    return healthy ? EXIT.ok : EXIT.failed;
  },
};
