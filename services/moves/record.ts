import type { Database } from '../../db/database.js';
import type { BeginResult } from '../../db/repositories/instances/instance-operations.js';
import { takeMoveLease } from '../../db/repositories/moves/move-leases.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { type PlannedOperation, recordPlannedOperation } from '../instances/operations.js';
import type { WorkflowType } from '../workflow-starts.js';

/**
 * The hold every move takes on its instance, in the request's transaction: the operation's
 * compare-and-set (which refuses it while another operation runs) and the instance's exclusive
 * lease, one per instance whatever the kind, so a migration and a storage move never overlap
 * (`INSTANCE_MIGRATING` while another holds it). The running move renews the lease.
 */
export async function holdInstanceForMove<W extends WorkflowType>(
  trx: Database,
  actor: Actor,
  plan: PlannedOperation<W>,
  move: { id: string; noun: string; ttlMs: number },
): Promise<Extract<BeginResult, { begun: true }>> {
  const recorded = await recordPlannedOperation(trx, actor, plan);
  const leased = await takeMoveLease(trx, {
    instanceId: plan.request.instanceId,
    moveId: move.id,
    holder: `${move.noun} ${move.id} (${actorName(actor)})`,
    ttlMs: move.ttlMs,
  });
  if (!leased) throw new ApiError('INSTANCE_MIGRATING');
  return recorded;
}
