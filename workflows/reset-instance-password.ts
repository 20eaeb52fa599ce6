import type { AgentTaskParams } from '../domain/agent-tasks.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface ResetInstancePasswordInput {
  readonly operation: OperationContext;
  readonly passwordWindowMs: number;
  /** `root_password` is sealed: it appears in this history only encrypted. */
  readonly params: AgentTaskParams<'instance.set_password'>;
}

/**
 * Runbook: the hypervisor sets the guest's new root password; then the panel keeps it (sealed)
 * and opens its show-once window. The instance's status does not change.
 */
export async function resetInstancePassword(
  input: ResetInstancePasswordInput,
): Promise<{ changed: boolean }> {
  const { operation, params } = input;
  const { recordPassword } = bookkeeping();
  const runTask = agentStep('quick', operation.timing);
  return runOperation(operation, async () => {
    step('Setting the new password in the guest');
    const result = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'instance.set_password',
        params,
        correlationId: operation.correlationId,
      },
      `set the root password of instance ${operation.instanceId}`,
    );
    step('Opening the new password’s show-once window');
    await recordPassword({
      instanceId: operation.instanceId,
      sealedPassword: params.root_password,
      passwordWindowMs: input.passwordWindowMs,
    });
    return { status: 'unchanged', result };
  });
}
