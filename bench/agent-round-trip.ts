/**
 * Agent task round trip with a zero-latency driver: `probeHypervisor` runs one task that changes
 * nothing, one run after another. Each run is split into its stages, from the Temporal history of
 * the run and the timestamps of its agent-task row (the machine's one clock):
 *
 *   dispatched       the workflow task that scheduled the activity started (the workflow's clock)
 *   queued           the activity inserted the task (agent_tasks.created_at)
 *   picked up        an agent's long poll leased it (leased_at)
 *   started          the agent's `started` report was recorded (started_at)
 *   finished         its `completed` report was recorded (finished_at)
 *   completed        Temporal recorded the activity completed (ActivityTaskCompleted)
 *   seen             the workflow task that received the result started (WorkflowTaskStarted)
 *
 * The agent task's round trip is queued → seen: the task's way through the Agent API and back
 * into the workflow. The whole workflow step, dispatched → seen (the run's own measure), adds
 * what Temporal spends on any activity step, which the bench measures on its own beside it: a
 * workflow whose one activity answers at once, on the same server (temporal-floor/).
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { probeHypervisorWorkflowId } from '../domain/workflow-ids.js';
import type { ServiceDeps } from '../services/context.js';
import { startWorkflow, stepTiming } from '../services/workflow-starts.js';
import { temporalFloor } from './temporal-floor/floor.js';

type Event = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

const STAGES = [
  'dispatched → queued',
  'queued → picked up',
  'picked up → started',
  'started → finished',
  'finished → completed',
  'completed → seen',
] as const;

interface Probe {
  readonly workflowId: string;
  readonly roundTripMs: number;
}

const eventMs = (event: Event | undefined): number => {
  const time = event?.eventTime;
  if (!time) return Number.NaN;
  return Number(time.seconds ?? 0) * 1000 + (time.nanos ?? 0) / 1e6;
};

const quantile = (values: readonly number[], q: number) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

const figures = (values: readonly number[]) =>
  `p50 ${quantile(values, 0.5).toFixed(1)} ms, p99 ${quantile(values, 0.99).toFixed(1)} ms, max ${quantile(values, 1).toFixed(1)} ms`;

/** One probe workflow on the hypervisor, to its end. */
export async function probe(
  deps: Pick<ServiceDeps, 'temporal' | 'config'>,
  hypervisorId: string,
): Promise<Probe> {
  const workflowId = probeHypervisorWorkflowId(hypervisorId, randomUUID());
  const handle = await startWorkflow(deps, {
    type: 'probeHypervisor',
    workflowId,
    input: { hypervisorId, timing: stepTiming(deps.config) },
    searchAttributes: { hypervisor: hypervisorId },
    correlationId: null,
  });
  const result = (await handle.result()) as { round_trip_ms: number };
  return { workflowId, roundTripMs: result.round_trip_ms };
}

/** The run's points in time (ms), from dispatched to seen: one more than STAGES. */
async function pointsOf(deps: Pick<ServiceDeps, 'db' | 'temporal'>, run: Probe): Promise<number[]> {
  const history = await deps.temporal.workflow.getHandle(run.workflowId).fetchHistory();
  const events = history.events ?? [];
  const scheduledAt = events.findIndex((e) => e.activityTaskScheduledEventAttributes);
  const dispatchTask = events.slice(0, scheduledAt).findLast((e) => e.workflowTaskStartedEventAttributes);
  const completedAt = events.findIndex((e) => e.activityTaskCompletedEventAttributes);
  const seenTask = events.slice(completedAt).find((e) => e.workflowTaskStartedEventAttributes);
  const task = await deps.db
    .selectFrom('agent_tasks')
    .select(['created_at', 'leased_at', 'started_at', 'finished_at'])
    .where('workflow_id', '=', run.workflowId)
    .orderBy('attempt', 'desc')
    .executeTakeFirst();
  return [
    eventMs(dispatchTask),
    task?.created_at.getTime() ?? Number.NaN,
    task?.leased_at?.getTime() ?? Number.NaN,
    task?.started_at?.getTime() ?? Number.NaN,
    task?.finished_at?.getTime() ?? Number.NaN,
    eventMs(events[completedAt]),
    eventMs(seenTask),
  ];
}

export async function benchAgentRoundTrip(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config'>,
  hypervisorId: string,
  options: { probes: number; warmUp: number },
): Promise<void> {
  for (let i = 0; i < options.warmUp; i++) await probe(deps, hypervisorId);
  const runs: Probe[] = [];
  for (let i = 0; i < options.probes; i++) runs.push(await probe(deps, hypervisorId));
  const points: number[][] = [];
  for (const run of runs) points.push(await pointsOf(deps, run));
  const trips = points.map((p) => p[STAGES.length]! - p[1]!);
  const p50 = quantile(trips, 0.5);
  const p99 = quantile(trips, 0.99);
  console.log(
    `agent task round trip, queued → seen by the workflow (${options.probes} probeHypervisor runs one after another ` +
      `after ${options.warmUp} warm-up, zero-latency driver): ${figures(trips)} ` +
      `(targets: p50 <= 25 ${p50 <= 25 ? 'met' : 'NOT met'}, p99 <= 100 ${p99 <= 100 ? 'met' : 'NOT met'})`,
  );
  const column = (i: number) => points.map((p) => p[i + 1]! - p[i]!);
  console.log(
    `  stages, median (p99): ${STAGES.map((name, i) => `${name} ${quantile(column(i), 0.5).toFixed(1)} (${quantile(column(i), 0.99).toFixed(1)})`).join(', ')} ms`,
  );
  console.log(
    `  whole workflow step, dispatched → seen (the run's own clock): ${figures(runs.map((r) => r.roundTripMs))}`,
  );
  const floor = await temporalFloor(
    deps.temporal,
    deps.config.TEMPORAL_ADDRESS,
    deps.config.TEMPORAL_NAMESPACE,
    {
      runs: options.probes,
      warmUp: options.warmUp,
    },
  );
  console.log(
    `  Temporal alone, the same step with an activity that answers at once (same server, a worker of the same settings): ${figures(floor)}`,
  );
}
