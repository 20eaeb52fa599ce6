import type { AgentTaskParams, AgentTaskType } from '../../domain/agent-tasks.js';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import { agentStep } from '../lib/steps.js';

/** The semantic tasks of a migration, on its source or its target, quick or long. */
export function migrationTasks(
  input: Pick<
    MigrateInstanceInput,
    'migrationId' | 'operation' | 'sourceHypervisorId' | 'targetHypervisorId'
  >,
) {
  const { operation } = input;
  const quick = agentStep('quick', operation.timing);
  const long = agentStep('long', operation.timing);
  const on =
    (hypervisorId: string, side: string) =>
    <T extends AgentTaskType>(type: T, params: AgentTaskParams<T>, summary: string, kind = quick) =>
      kind({ hypervisorId, type, params, correlationId: operation.correlationId }, `${summary} (${side})`);
  return {
    quick,
    long,
    onSource: on(input.sourceHypervisorId, 'source'),
    onTarget: on(input.targetHypervisorId, 'target'),
    /** The ids every migration task carries. */
    ids: { migration_id: input.migrationId, instance_id: operation.instanceId },
  };
}

export type MigrationTasks = ReturnType<typeof migrationTasks>;
