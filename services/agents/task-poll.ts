import type { OfferedTask } from '../../db/repositories/hypervisors/agent-task-leases.js';
import type { TaskFeed } from '../../db/task-channel.js';
import type { ApiMetrics } from '../../platform/metrics.js';
import { openSealedParams, secretBox } from '../../platform/secrets.js';
import type { ServiceDeps } from '../context.js';
import type { AgentActor } from './actor.js';
import { takeNextTask } from './next-task.js';

/** What a long poll needs beside the database: the feed that wakes it, and the counter of what it hands out. */
export interface TaskPollDeps extends Pick<ServiceDeps, 'db' | 'config'> {
  readonly taskFeed: TaskFeed;
  readonly metrics: Pick<ApiMetrics, 'tasksOffered'>;
}

export interface TaskPoll {
  /** How long the agent will wait, in ms; AGENT_POLL_MAX_WAIT_MS when it says nothing, and at most that. */
  readonly waitMs: number | undefined;
  /** Aborts when the agent goes away. */
  readonly signal: AbortSignal;
}

/**
 * An agent's long poll for its hypervisor's next task: the task, leased to the agent, with its
 * sealed parameters opened for it (what the agent receives), or undefined when none came within
 * the wait, the agent went away or this process is stopping. It looks at once, then waits for the
 * feed to announce a task (or its sweep to find one no announcement brought) and looks again.
 */
export async function pollNextTask(
  deps: TaskPollDeps,
  agent: AgentActor,
  poll: TaskPoll,
): Promise<OfferedTask | undefined> {
  const { config, taskFeed } = deps;
  const waitMs = Math.min(poll.waitMs ?? config.AGENT_POLL_MAX_WAIT_MS, config.AGENT_POLL_MAX_WAIT_MS);
  const deadline = Date.now() + waitMs;

  // A wake this poll got and could not use (it ended first, or its lease failed) goes on to the
  // agent's next waiting poll, since one announcement wakes one poll (db/task-channel.ts).
  let woken = false;
  try {
    for (let look = 0; ; look++) {
      // The agent gone, or this process stopping: answer now, as a poll that found nothing.
      if (poll.signal.aborted || taskFeed.closed) return undefined;
      const heard = taskFeed.announcements(agent.hypervisorId);
      const task = await takeNextTask(deps, agent, look === 0);
      // Found after the feed's sweep, not an announcement, woke it: a missed announcement, a lapsed
      // lease, or no LISTEN.
      const foundBy = look === 0 ? 'first_look' : woken ? 'wake' : 'recheck';
      woken = false;
      if (task) {
        deps.metrics.tasksOffered.inc({ found_by: foundBy });
        return { ...task, params: openSealedParams(secretBox(config.SECRETS_KEY), task.params) };
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0 || taskFeed.closed) return undefined;
      woken = await taskFeed.wait(agent.hypervisorId, remaining, poll.signal, heard);
      // The wait ran out with nothing announced: the agent's next poll looks first thing.
      if (!woken && Date.now() >= deadline) return undefined;
    }
  } finally {
    if (woken) taskFeed.pass(agent.hypervisorId);
  }
}
