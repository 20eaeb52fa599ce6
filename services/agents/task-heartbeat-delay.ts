/**
 * A heartbeat goes to Temporal HEARTBEAT_DELAY_MS after its report, unless this process has
 * delivered the task's final report meanwhile. Most tasks are quick: their `started` heartbeat
 * would be a Temporal write that changes nothing, made at the very moment of their completion.
 * The delay is nothing beside the heartbeat timeout (AGENT_TASK_HEARTBEAT_TIMEOUT_MS).
 */
const HEARTBEAT_DELAY_MS = 100;
const finishedTasks = new Set<string>();

export function heartbeatLater(taskId: string, send: () => void): void {
  setTimeout(() => {
    if (!finishedTasks.has(taskId)) send();
  }, HEARTBEAT_DELAY_MS).unref();
}

export function finishedHere(taskId: string): void {
  finishedTasks.add(taskId);
  setTimeout(() => finishedTasks.delete(taskId), 2 * HEARTBEAT_DELAY_MS).unref();
}
