import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { hypervisorMigrationFacts } from '../../db/repositories/moves/hypervisor-migration-facts.js';
import { instancesMigrationFactsOn } from '../../db/repositories/moves/migration-facts.js';
import { notFound } from '../../domain/errors.js';
import { type EvacuationPlan, planEvacuation } from '../../domain/evacuations/plan.js';
import type { MigrationMode } from '../../domain/migrations/states.js';
import type { ServiceDeps } from '../context.js';
import { movePolicy } from '../moves/settings.js';

export interface EvacuationPlanReport extends EvacuationPlan {
  readonly hypervisor: { readonly id: string; readonly name: string };
  readonly instances: number;
}

/**
 * The dry run of an evacuation (read-only): every instance on the hypervisor with the target and
 * strategy the migration preflight gives it, spread over the targets by capacity, and every
 * instance that cannot move with every reason.
 */
export async function evacuationPlan(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  request: { readonly hypervisorId: string; readonly mode: MigrationMode },
): Promise<EvacuationPlanReport> {
  const hypervisor = await findHypervisor(deps.db, request.hypervisorId);
  if (!hypervisor) throw notFound();
  const [hypervisors, instances] = await Promise.all([
    hypervisorMigrationFacts(deps.db),
    instancesMigrationFactsOn(deps.db, hypervisor.id),
  ]);
  const source = hypervisors.find((h) => h.id === hypervisor.id)!;
  const plan = planEvacuation({
    source,
    hypervisors,
    instances: instances.map(({ row, facts }) => ({ id: row.id, name: row.name, facts })),
    mode: request.mode,
    policy: movePolicy(deps.config),
  });
  return { ...plan, hypervisor: { id: hypervisor.id, name: hypervisor.name }, instances: instances.length };
}
