import type { AgentTaskParams, AgentTaskType } from '../../../domain/agent-tasks.js';
import { DriverFailure, type TaskContext } from '../driver.js';
import type { IncomingInstance, MigrationState, SimulatedInstance } from './state.js';

// What the simulated migration's tasks share: the shape of a task's handler, and where it finds
// the arriving guest and its own instance.

const MIGRATION_TASK_TYPES = [
  'migration.prepare_target',
  'disk.export',
  'disk.withdraw',
  'disk.transfer',
  'disk.verify',
  'network.prepare',
  'network.release',
  'migration.define_target',
  'migration.live',
  'migration.start_target',
  'migration.verify_target',
  'migration.discard_target',
  'migration.cleanup_source',
] as const satisfies readonly AgentTaskType[];
export type MigrationTaskType = (typeof MIGRATION_TASK_TYPES)[number];

export const isMigrationTask = (type: AgentTaskType): type is MigrationTaskType =>
  (MIGRATION_TASK_TYPES as readonly string[]).includes(type);

export type Applied = { result: Record<string, unknown>; detail?: string; instanceId: string };
export type Arriving = MigrationState & { incoming: Record<string, IncomingInstance> };
/** Whether the room fits here; `preparing`: the instance whose arrival asks it (host-capacity.ts instancesRoom). */
export type Fits = (
  need: { cpu_cores: number; memory_mb: number; disk_mb: number },
  preparing?: string,
) => boolean;

/** A task's handler: idempotent, `detail` set when something changed (recorded as an applied change). */
export type TaskHandlers<T extends MigrationTaskType> = {
  [K in T]: (
    state: Arriving,
    p: AgentTaskParams<K>,
    ctx: TaskContext,
    fits: Fits,
  ) => Applied | Promise<Applied>;
};

export function incomingOf(state: MigrationState, migrationId: string): IncomingInstance {
  const incoming = state.incoming?.[migrationId];
  if (!incoming)
    throw new DriverFailure(
      'MIGRATION_NOT_PREPARED',
      'the target was not prepared for this migration',
      false,
    );
  return incoming;
}

export function ownInstance(state: MigrationState, instanceId: string): SimulatedInstance {
  const instance = state.instances[instanceId];
  if (!instance) throw new DriverFailure('INSTANCE_NOT_FOUND', 'no such instance on this hypervisor', false);
  return instance;
}
