import { randomUUID } from 'node:crypto';
import { holdNewBackup } from '../../db/records/backups.js';
import type { BackupRow } from '../../db/repositories/storage/backups.js';
import type { Customer } from '../../domain/actors.js';
import { defaultArtifactName } from '../../domain/backups.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from '../instances/operations.js';
import { placedInstance } from './placed-instance.js';

/** Takes a backup of the instance (running or stopped): 202 with the backup `creating`. */
export async function createBackup(
  deps: ServiceDeps,
  actor: Customer,
  request: { instanceId: string; name: string | undefined; correlationId: string | null },
): Promise<BackupRow> {
  const instance = await placedInstance(deps, actor, request.instanceId);
  const backupId = randomUUID();
  let backup: BackupRow | undefined;
  await beginInstanceOperation(
    deps,
    actor,
    {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      kind: 'backup',
      workflowType: 'backupInstance',
      input: (operation) => ({ operation, backupId }),
      correlationId: request.correlationId,
    },
    async (trx) => {
      backup = await holdNewBackup(trx, deps.config, {
        id: backupId,
        instanceId: instance.id,
        userId: actor.userId,
        name: request.name ?? defaultArtifactName('backup', new Date()),
        policyId: null,
      });
    },
  );
  return backup!;
}
