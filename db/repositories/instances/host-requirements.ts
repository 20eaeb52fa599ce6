import type { HostRequirement } from '../../../domain/instances/host-requirements.js';
import type { Database } from '../../database.js';

/** Sets what binds an instance to its host; undefined for an unknown or deleted instance. */
export async function setInstanceHostRequirements(
  db: Database,
  instanceId: string,
  requirements: readonly HostRequirement[],
) {
  return db
    .updateTable('instances')
    .set({ host_requirements: JSON.stringify(requirements), updated_at: new Date() })
    .where('id', '=', instanceId)
    .where('deleted_at', 'is', null)
    .returning(['id', 'host_requirements'])
    .executeTakeFirst();
}

/** Sets what binds the instances created from a plan to their host; undefined for an unknown plan. */
export async function setPlanHostRequirements(
  db: Database,
  planId: string,
  requirements: readonly HostRequirement[],
) {
  return db
    .updateTable('plans')
    .set({ host_requirements: JSON.stringify(requirements) })
    .where('id', '=', planId)
    .returning(['id', 'host_requirements'])
    .executeTakeFirst();
}
