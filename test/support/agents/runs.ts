/** One run of a task by an agent process, as its log tells: from `task started` to its end. */
export interface TaskRun {
  readonly task: string;
  readonly start: number;
  end: number;
}

/**
 * What an agent's log lines (JSON, in the order written) say it ran, and when: a run ends with
 * `task completed`, `stopped` or `failed`, or with its process (a new one starts by loading or
 * getting its credential); the last process's open runs have not ended.
 */
export function taskRuns(lines: readonly string[]): TaskRun[] {
  const runs: TaskRun[] = [];
  let open = new Map<string, TaskRun>();
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { time: string; msg: string; task_id?: string };
    const at = Date.parse(entry.time);
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

/** Whether two of the runs overlap in time. */
export function overlap(runs: readonly TaskRun[]): boolean {
  const sorted = [...runs].sort((a, b) => a.start - b.start);
  return sorted.some((run, i) => i > 0 && run.start < sorted[i - 1]!.end);
}
