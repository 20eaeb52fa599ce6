import type { AgentTaskParams, AgentTaskType } from '../../domain/agent-tasks.js';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import type { GuestAt } from '../lib/guest-power.js';
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
  const guestOn = (hypervisorId: string): GuestAt => ({
    hypervisorId,
    instanceId: operation.instanceId,
    correlationId: operation.correlationId,
    timing: operation.timing,
  });
  return {
    quick,
    long,
    onSource: on(input.sourceHypervisorId, 'source'),
    onTarget: on(input.targetHypervisorId, 'target'),
    /** The instance's guest on each side, for the questions every ending asks (lib/guest-power.ts). */
    source: guestOn(input.sourceHypervisorId),
    target: guestOn(input.targetHypervisorId),
    /** The ids every migration task carries. */
    ids: { migration_id: input.migrationId, instance_id: operation.instanceId },
  };
}

export type MigrationTasks = ReturnType<typeof migrationTasks>;
