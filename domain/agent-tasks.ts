import { z } from 'zod';
import { ARTIFACT_TASKS } from './agent-tasks/artifacts.js';
import { CONSOLE_TASKS } from './agent-tasks/console.js';
import { IMAGE_TASKS } from './agent-tasks/images.js';
import { INSTANCE_TASKS } from './agent-tasks/instances.js';
import { MEDIA_TASKS } from './agent-tasks/media.js';
import { MIGRATION_TASKS } from './agent-tasks/migration.js';
import { NETWORK_TASKS } from './agent-tasks/network.js';
import { STORAGE_TASKS } from './agent-tasks/storage.js';
import { STORAGE_MOVE_TASKS } from './agent-tasks/storage-moves.js';
import { storableJsonObject, text } from './input-bounds.js';

export { GuestAddresses, NETWORK_ADDRESSES_MAX } from './agent-tasks/network.js';

/**
 * The catalogue of semantic agent tasks, shared by the panel (which validates what it
 * dispatches and what agents report) and the agent (which validates what it executes).
 * A task names what should become true, never how: no URIs, host paths or commands.
 * The groups are in `agent-tasks/`, one file each.
 */
export const AGENT_TASKS = {
  ...INSTANCE_TASKS,
  ...MIGRATION_TASKS,
  ...ARTIFACT_TASKS,
  ...NETWORK_TASKS,
  ...STORAGE_TASKS,
  ...STORAGE_MOVE_TASKS,
  ...MEDIA_TASKS,
  ...IMAGE_TASKS,
  ...CONSOLE_TASKS,
  /** Touches nothing: proves the whole path panel → agent → driver → panel works. */
  'hypervisor.probe': {
    params: z.object({}),
    result: z.object({ instances: z.number().int().nonnegative() }),
  },
} as const;

export type AgentTaskType = keyof typeof AGENT_TASKS;
export const AGENT_TASK_TYPES = Object.keys(AGENT_TASKS) as AgentTaskType[];
export type AgentTaskParams<T extends AgentTaskType> = z.infer<(typeof AGENT_TASKS)[T]['params']>;
export type AgentTaskResult<T extends AgentTaskType> = z.infer<(typeof AGENT_TASKS)[T]['result']>;

export function isAgentTaskType(type: string): type is AgentTaskType {
  return Object.hasOwn(AGENT_TASKS, type);
}

/**
 * How an agent reports a failed task. `retryable: false` means trying again cannot help (the
 * instance does not exist, the request is invalid); the workflow then stops retrying.
 */
export const AgentTaskFailure = z.strictObject({
  code: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Z0-9_.-]+$/),
  message: text({ max: 2000, multiline: true }),
  retryable: z.boolean().default(true),
});
export type AgentTaskFailure = z.infer<typeof AgentTaskFailure>;

/** The optional message of a progress report. */
export const AgentTaskProgressMessage = text({ max: 500, min: 0, multiline: true });

/** A completed report's result as stored (jsonb), before its task type's own result schema. */
export const AgentTaskResultBody = storableJsonObject({ maxLength: 65_536 });

/** Failure codes the panel itself gives a task attempt. */
export const PANEL_TASK_FAILURES = {
  invalidResult: 'AGENT_RESULT_INVALID',
  invalidParams: 'AGENT_TASK_PARAMS_INVALID',
  /** No agent of the hypervisor took the task within AGENT_TASK_PICKUP_TIMEOUT_MS. */
  notPickedUp: 'AGENT_TASK_NOT_PICKED_UP',
  /** An administrator cancelled the task before an agent took it. */
  cancelledByProvider: 'CANCELLED_BY_PROVIDER',
} as const;
