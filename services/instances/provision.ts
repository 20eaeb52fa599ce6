import type { Instance } from '../../db/repositories/instances.js';
import { ApiError } from '../../domain/errors.js';
import type { BOOT_DEVICES } from '../../domain/instances/statuses.js';
import type { Actor, ServiceDeps } from '../context.js';
import { type BegunOperation, beginInstanceOperation } from './operations.js';

/**
 * Provisions an instance row (status `provisioning`, placed on a hypervisor) through the
 * provisioning workflow. Beginning the operation twice is refused by the operations model, so a
 * retried call never provisions twice.
 */
export async function provisionInstance(
  deps: ServiceDeps,
  actor: Actor,
  instance: Instance,
  imageCode: string,
  correlationId: string | null,
): Promise<BegunOperation> {
  const hypervisorId = instance.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  return beginInstanceOperation(deps, actor, {
    instanceId: instance.id,
    hypervisorId,
    kind: 'provision',
    workflowType: 'provisionInstance',
    input: (operation) => ({
      operation,
      spec: {
        instance_id: instance.id,
        hostname: instance.hostname,
        cpu_cores: instance.cpu_cores,
        memory_mb: instance.memory_mb,
        disk_mb: instance.disk_mb,
        image: imageCode,
        boot_order: instance.boot_order as (typeof BOOT_DEVICES)[number][],
        ipv4: instance.primary_ipv4,
        ipv6: instance.primary_ipv6,
        start: true,
      },
    }),
    correlationId,
  });
}
