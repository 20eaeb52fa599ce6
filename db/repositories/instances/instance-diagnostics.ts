import type { Database } from '../../database.js';
import { moveLeaseHeld } from '../moves/move-leases.js';

/** What a customer may see of an instance's health: its host's reachability, its operations. */
export async function findInstanceDiagnostics(db: Database, instanceId: string) {
  const row = await db
    .selectFrom('instances as i')
    .leftJoin('hypervisors as h', 'h.id', 'i.hypervisor_id')
    .leftJoin('instance_operations as o', 'o.id', 'i.operation_id')
    .select([
      'i.id',
      'h.status as hypervisor_status',
      'h.last_seen_at as hypervisor_last_seen_at',
      'o.id as running_id',
      'o.kind as running_kind',
      'o.created_at as running_since',
      moveLeaseHeld.as('migrating'),
    ])
    .where('i.id', '=', instanceId)
    .executeTakeFirst();
  if (!row) return undefined;
  const lastFailure = await db
    .selectFrom('instance_operations')
    .select(['kind', 'state', 'outcome', 'finished_at'])
    .where('instance_id', '=', instanceId)
    .where('state', 'in', ['failed', 'abandoned'])
    .orderBy('finished_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { ...row, lastFailure };
}
