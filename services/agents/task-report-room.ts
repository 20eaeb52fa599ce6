import type { Database } from '../../db/database.js';
import type { LockedTask } from '../../db/repositories/hypervisors/agent-task-reports.js';
import { recordBootedCeiling } from '../../db/repositories/instances/instance-size-reports.js';
import type { AgentTaskType } from '../../domain/agent-tasks.js';
import type { HotplugCeiling } from '../../domain/instances/hot-resize.js';
import type { Delivery } from './task-report-effects.js';

/** The tasks that (re)start a guest's process, whose result says the room it was booted with. */
const BOOTING_TASKS: ReadonlySet<AgentTaskType> = new Set<AgentTaskType>([
  'instance.power',
  'iso.boot',
  'rescue.enter',
  'rescue.exit',
]);

/**
 * The room a booting task's guest got, as its hypervisor reports it in the completion (already
 * checked against the task's result schema), becomes its instance's in the transaction that
 * records the completion: the operation settles only after, so a plan change's dry run never reads
 * the previous boot's room (docs/api.md "Plan changes"). The inventory no longer has to close that
 * window; it still corrects a guest that restarted by itself. A result without `hot_ceiling` (a
 * stopped guest, an older agent) changes nothing. Called only for a report that changes its task.
 */
export async function recordBootedRoom(db: Database, task: LockedTask, delivery: Delivery): Promise<void> {
  if (delivery.kind !== 'complete' || !BOOTING_TASKS.has(task.type as AgentTaskType)) return;
  const { power_state, hot_ceiling } = delivery.result as {
    power_state?: string;
    hot_ceiling?: HotplugCeiling | null;
  };
  if (power_state !== 'running' || hot_ceiling === undefined) return;
  await recordBootedCeiling(db, { taskId: task.id, ceiling: hot_ceiling });
}
