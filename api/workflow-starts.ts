import { type Client, WorkflowIdReusePolicy } from '@temporalio/client';
import type { Instance } from '../db/repositories/instances.js';
import { provisionInstanceWorkflowId } from '../domain/workflow-ids.js';
import type { Config } from '../platform/config.js';
import type { ProvisionInstanceInput } from '../workflows/provision-instance.js';

/**
 * Starts provisioning an instance row on its hypervisor. The workflow id is the instance's, and
 * a second start of the same id is refused, so calling this again (a retried request, a resumed
 * `npm start`) never provisions twice.
 */
export async function startProvisioning(
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'AGENT_TASK_HEARTBEAT_TIMEOUT_MS'>,
  instance: NonNullable<Instance>,
  imageCode: string,
  correlationId: string | null,
) {
  const input: ProvisionInstanceInput = {
    instanceId: instance.id,
    hypervisorId: instance.hypervisor_id!,
    spec: {
      instance_id: instance.id,
      hostname: instance.hostname,
      cpu_cores: instance.cpu_cores,
      memory_mb: instance.memory_mb,
      disk_mb: instance.disk_mb,
      image: imageCode,
      boot_order: instance.boot_order as ProvisionInstanceInput['spec']['boot_order'],
      ipv4: instance.primary_ipv4,
      ipv6: instance.primary_ipv6,
      start: true,
    },
    correlationId,
    timing: { heartbeatTimeoutMs: config.AGENT_TASK_HEARTBEAT_TIMEOUT_MS },
  };
  return temporal.workflow.start('provisionInstance', {
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowId: provisionInstanceWorkflowId(instance.id),
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    args: [input],
  });
}
