import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultShape } from './shape.js';

/** One run of a task by an agent process, as its log tells: from `task started` to its end. */
interface Run {
  readonly task: string;
  readonly start: number;
  end: number;
}

/** What each agent process's own log says it ran, and when (its last process's open runs end now). */
function runsInLog(file: string): Run[] {
  if (!existsSync(file)) return [];
  const runs: Run[] = [];
  let open = new Map<string, Run>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { time: string; msg: string; task_id?: string };
    const at = Date.parse(entry.time);
    // A new process: what the last one was running ended with it, before this line.
    if (entry.msg === 'agent credential loaded' || entry.msg === 'agent enrolled') {
      for (const run of open.values()) run.end = at;
      open = new Map();
    }
    if (!entry.task_id) continue;
    if (entry.msg === 'task started') {
      const run = { task: entry.task_id, start: at, end: Number.POSITIVE_INFINITY };
      runs.push(run);
      open.set(entry.task_id, run);
    } else if (['task completed', 'task stopped', 'task failed'].includes(entry.msg)) {
      const run = open.get(entry.task_id);
      if (run) run.end = at;
      open.delete(entry.task_id);
    }
  }
  return runs;
}

/** One step of a workflow as the hypervisors ran it: how many runs, and whether two overlapped. */
export interface StepRuns {
  /** `<task type> (activity <id>)`. */
  readonly step: string;
  readonly runs: number;
  /** Two runs of it overlapping in time: the step ran twice at once. */
  readonly atOnce: boolean;
}

/**
 * Every step of a workflow that an agent ran, by the agents' own logs: a step runs again when its
 * task is leased anew (its agent went away) or a retried attempt queues another task.
 */
export async function stepRuns(shape: FaultShape, workflowId: string): Promise<StepRuns[]> {
  const tasks = await shape.db
    .selectFrom('agent_tasks')
    .select(['id', 'activity_id', 'type'])
    .where('workflow_id', '=', workflowId)
    .execute();
  const stepOf = new Map(tasks.map((t) => [t.id, `${t.type} (activity ${t.activity_id})`]));
  const byStep = new Map<string, Run[]>();
  for (const run of ['agent', 'agent-2'].flatMap((name) =>
    runsInLog(join(shape.folder, 'logs', `${name}.log`)),
  )) {
    const step = stepOf.get(run.task);
    if (step) byStep.set(step, [...(byStep.get(step) ?? []), run]);
  }
  return [...byStep].map(([step, runs]) => {
    const sorted = runs.sort((a, b) => a.start - b.start);
    return {
      step,
      runs: runs.length,
      atOnce: sorted.some((run, i) => i > 0 && run.start < sorted[i - 1]!.end),
    };
  });
}

/** The steps run twice at once, by name. */
export const runAtOnce = (steps: readonly StepRuns[]) => steps.filter((s) => s.atOnce).map((s) => s.step);

/** How many times the steps of a task type ran. */
export const runsOfType = (steps: readonly StepRuns[], type: string) =>
  steps.filter((s) => s.step.startsWith(`${type} `)).reduce((sum, s) => sum + s.runs, 0);
