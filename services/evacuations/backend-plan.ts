import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { listInstancesWithDisksOn } from '../../db/repositories/storage/instance-disks.js';
import { notFound } from '../../domain/errors.js';
import type { StorageBackend } from '../../domain/hypervisors.js';
import type { Finding } from '../../domain/migrations/preflight.js';
import type { MigrationMode, MigrationStrategy } from '../../domain/migrations/states.js';
import type { DiskFacts, StorageBlockerCode } from '../../domain/storage-moves/preflight.js';
import type { ServiceDeps } from '../context.js';
import { readStorageMovePreflight } from '../storage-moves/preflight.js';

export interface BackendDrainPlan {
  readonly hypervisor: { readonly id: string; readonly name: string };
  readonly from: StorageBackend;
  readonly to: StorageBackend;
  readonly mode: MigrationMode;
  /** Largest first: the order a drain starts them. */
  readonly moves: {
    instance: { id: string; name: string };
    strategy: MigrationStrategy;
    disks: DiskFacts[];
  }[];
  readonly unmovable: { instance: { id: string; name: string }; blockers: Finding<StorageBlockerCode>[] }[];
}

/**
 * The dry run of draining one of a hypervisor's backends (read-only): each instance with disks on
 * it judged by the storage move's preflight, to the other backend; largest first.
 */
export async function backendDrainPlan(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  request: { hypervisorId: string; from: StorageBackend; to: StorageBackend; mode: MigrationMode },
): Promise<BackendDrainPlan> {
  const hypervisor = await findHypervisor(deps.db, request.hypervisorId);
  if (!hypervisor) throw notFound();
  const plan: BackendDrainPlan = {
    hypervisor: { id: hypervisor.id, name: hypervisor.name },
    ...request,
    moves: [],
    unmovable: [],
  };
  const sized: { size: number; move: BackendDrainPlan['moves'][number] }[] = [];
  for (const instance of await listInstancesWithDisksOn(deps.db, hypervisor.id, request.from)) {
    const { report } = await readStorageMovePreflight(deps, { instanceId: instance.id, ...request });
    const named = { id: instance.id, name: instance.name };
    if (report.ok && report.strategy) {
      const size = report.disks.reduce((sum, d) => sum + d.sizeMb, 0);
      sized.push({ size, move: { instance: named, strategy: report.strategy, disks: report.disks } });
    } else plan.unmovable.push({ instance: named, blockers: report.blockers });
  }
  plan.moves.push(
    ...sized
      .sort((a, b) => b.size - a.size || a.move.instance.id.localeCompare(b.move.instance.id))
      .map((s) => s.move),
  );
  return plan;
}
