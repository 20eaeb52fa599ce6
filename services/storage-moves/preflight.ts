import { hypervisorMigrationFacts } from '../../db/repositories/moves/hypervisor-migration-facts.js';
import { instanceMigrationFacts } from '../../db/repositories/moves/migration-facts.js';
import { listInstanceDisks } from '../../db/repositories/storage/instance-disks.js';
import { notFound } from '../../domain/errors.js';
import type { StorageBackend } from '../../domain/hypervisors.js';
import type { MoveMode } from '../../domain/moves/states.js';
import { type StorageMoveReport, storageMovePreflight } from '../../domain/storage-moves/preflight.js';
import type { ServiceDeps } from '../context.js';
import { movePolicy } from '../moves/settings.js';

export interface StorageMoveRequest {
  readonly instanceId: string;
  readonly from: StorageBackend;
  readonly to: StorageBackend;
  readonly mode: MoveMode;
}

/** The facts a storage move's preflight judges, read (only read), and its report. */
export async function readStorageMovePreflight(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  request: StorageMoveRequest,
) {
  const instance = await instanceMigrationFacts(deps.db, request.instanceId);
  if (!instance) throw notFound();
  const [hypervisors, disks] = await Promise.all([
    hypervisorMigrationFacts(deps.db),
    listInstanceDisks(deps.db, request.instanceId),
  ]);
  const hypervisor = hypervisors.find((h) => h.id === instance.row.hypervisor_id);
  const report: StorageMoveReport = storageMovePreflight({
    instance: instance.facts,
    hypervisor,
    disks,
    from: request.from,
    to: request.to,
    mode: request.mode,
    policy: movePolicy(deps.config),
  });
  return { instance: instance.row, hypervisor, report };
}
