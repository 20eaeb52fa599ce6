import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { overlap, type TaskRun, taskRuns } from '../support/agents/runs.js';
import type { ProdShape } from '../support/prod-shape/shape.js';

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
export async function stepRuns(shape: ProdShape, workflowId: string): Promise<StepRuns[]> {
  const tasks = await shape.db
    .selectFrom('agent_tasks')
    .select(['id', 'activity_id', 'type'])
    .where('workflow_id', '=', workflowId)
    .execute();
  const stepOf = new Map(tasks.map((t) => [t.id, `${t.type} (activity ${t.activity_id})`]));
  const byStep = new Map<string, TaskRun[]>();
  for (const name of shape.agents)
    for (const run of taskRuns(logLines(join(shape.folder, 'logs', `${name}.log`)))) {
      const step = stepOf.get(run.task);
      if (step) byStep.set(step, [...(byStep.get(step) ?? []), run]);
    }
  return [...byStep].map(([step, runs]) => ({ step, runs: runs.length, atOnce: overlap(runs) }));
}

/** The steps run twice at once, by name. */
export const runAtOnce = (steps: readonly StepRuns[]) => steps.filter((s) => s.atOnce).map((s) => s.step);

/** How many times the steps of a task type ran. */
export const runsOfType = (steps: readonly StepRuns[], type: string) =>
  steps.filter((s) => s.step.startsWith(`${type} `)).reduce((sum, s) => sum + s.runs, 0);

const logLines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []);
