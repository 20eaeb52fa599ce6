import type { AgentTaskParams } from '../domain/agent-tasks.js';
import { statusOfPowerState } from '../domain/instances/statuses.js';
import type { OperationContext } from '../domain/operation-context.js';
import { runOperation, step } from './lib/operation.js';
import { agentStep, bookkeeping } from './lib/steps.js';

export interface RebuildInstanceInput {
  readonly operation: OperationContext;
  readonly imageId: string;
  /**
   * The version of the image the disk is written from (none: an image without versions). Read by
   * the image's bookkeeping from the operation's recorded input (db/repositories/instances/instances.ts
   * setInstanceImage), so the runbook itself is unchanged.
   */
  readonly imageVersionId?: string | null;
  readonly passwordWindowMs: number;
  /** `root_password` is sealed: it appears in this history only encrypted. */
  readonly params: AgentTaskParams<'instance.rebuild'>;
}

/**
 * Runbook: the hypervisor writes the disk anew from the image and sets the guest up again (new
 * root password, SSH keys, hostname, timezone), then starts it; the panel records the image and
 * opens the new password's show-once window. A rebuild cannot be undone: one that fails leaves
 * the instance in `error`.
 */
export async function rebuildInstance(input: RebuildInstanceInput): Promise<{ power_state: string }> {
  const { operation, params } = input;
  const { recordRebuild } = bookkeeping();
  const runTask = agentStep('long', operation.timing);
  return runOperation(operation, async () => {
    step(`Rebuilding the instance from ${params.image}`);
    const rebuilt = await runTask(
      {
        hypervisorId: operation.hypervisorId,
        type: 'instance.rebuild',
        params,
        correlationId: operation.correlationId,
      },
      `rebuild instance ${operation.instanceId} from ${params.image}`,
    );
    step('Recording the new image and password');
    await recordRebuild({
      instanceId: operation.instanceId,
      imageId: input.imageId,
      sealedPassword: params.root_password,
      passwordWindowMs: input.passwordWindowMs,
    });
    return {
      status: statusOfPowerState(rebuilt.power_state),
      detail: { power_state: rebuilt.power_state, image: params.image },
      result: rebuilt,
    };
  });
}
