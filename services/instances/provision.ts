import type { Database } from '../../db/database.js';
import { findSealedUserData } from '../../db/repositories/instances/instance-user-data.js';
import {
  type Instance,
  listInstanceSshKeys,
  setInstancePassword,
} from '../../db/repositories/instances/instances.js';
import { desiredFirewallOf } from '../../db/repositories/network/firewalls.js';
import { guestAddressesOf } from '../../db/repositories/network/ip-addresses.js';
import type { Actor } from '../../domain/actors.js';
import type { AgentTaskParams } from '../../domain/agent-tasks.js';
import { ApiError } from '../../domain/errors.js';
import type { BOOT_DEVICES } from '../../domain/instances/statuses.js';
import type { ServiceDeps } from '../context.js';
import { bootCeiling } from './hot-ceiling.js';
import {
  type BegunOperation,
  launchOperation,
  type PlannedOperation,
  planOperation,
  recordPlannedOperation,
} from './operations.js';
import { sealedNewPassword } from './passwords.js';

/**
 * The provisioning of an instance row (status `provisioning`, placed on a hypervisor): a new root
 * password, sealed, goes into the workflow's input and onto the instance (shown once); the SSH
 * keys recorded for the instance, its addresses (with their pools' prefix and gateway), its
 * firewall and its customer's user-data (sealed), where it has them, go to the hypervisor.
 */
export async function planProvisioning(
  deps: Pick<ServiceDeps, 'config'>,
  db: Database,
  instance: Instance,
  imageCode: string,
  correlationId: string | null,
  fromBackup?: AgentTaskParams<'instance.create'>['from_backup'],
): Promise<{ plan: PlannedOperation<'provisionInstance'>; sealedPassword: string }> {
  const hypervisorId = instance.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  const sealedPassword = sealedNewPassword(deps);
  const keys = await listInstanceSshKeys(db, instance.id);
  const addresses = await guestAddressesOf(db, instance.id);
  const userData = await findSealedUserData(db, instance.id);
  const { instance_id: _, ...firewall } = await desiredFirewallOf(db, instance.id);
  const ceiling = bootCeiling(deps.config, instance);
  const plan = planOperation(deps, {
    instanceId: instance.id,
    hypervisorId,
    kind: 'provision',
    workflowType: 'provisionInstance',
    input: (operation) => ({
      operation,
      spec: {
        instance_id: instance.id,
        hostname: instance.hostname,
        timezone: instance.timezone,
        root_password: sealedPassword,
        ssh_keys: keys.map((k) => k.public_key),
        cpu_cores: instance.cpu_cores,
        memory_mb: instance.memory_mb,
        disk_mb: instance.disk_mb,
        image: imageCode,
        boot_order: instance.boot_order as (typeof BOOT_DEVICES)[number][],
        ipv4: instance.primary_ipv4,
        ipv6: instance.primary_ipv6,
        addresses,
        ...(userData ? { user_data: userData } : {}),
        start: true,
        ...(fromBackup ? { from_backup: fromBackup } : {}),
        ...(firewall.revision > 0 ? { firewall } : {}),
        ...(ceiling ? { ceiling } : {}),
      },
    }),
    correlationId,
  });
  return { plan, sealedPassword };
}

/**
 * Provisions an instance row through the provisioning workflow. Beginning the operation twice is
 * refused by the operations model, so a retried call never provisions twice.
 */
export async function provisionInstance(
  deps: ServiceDeps,
  actor: Actor,
  instance: Instance,
  imageCode: string,
  correlationId: string | null,
): Promise<BegunOperation> {
  const { plan, sealedPassword } = await planProvisioning(deps, deps.db, instance, imageCode, correlationId);
  const begun = await deps.db.transaction().execute(async (trx) => {
    const recorded = await recordPlannedOperation(trx, actor, plan);
    await setInstancePassword(trx, instance.id, sealedPassword, deps.config.INITIAL_PASSWORD_WINDOW_MS);
    return recorded;
  });
  return launchOperation(deps, plan, begun);
}
