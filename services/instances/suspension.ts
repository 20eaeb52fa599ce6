import type { Database } from '../../db/database.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import { findPlacedInstance } from '../../db/repositories/instances/all-instances.js';
import {
  clearSuspension,
  lockSuspensionFacts,
  markSuspended,
} from '../../db/repositories/instances/instance-suspension.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { beginInstanceOperation } from './operations.js';

type Admin = Extract<Actor, { type: 'admin' }>;

interface SuspensionRequest {
  readonly instanceId: string;
  readonly correlationId: string | null;
}

/** What a suspension did: `stopping` when it began stopping a running guest. */
export type SuspensionOutcome = 'suspended' | 'stopping' | 'unchanged';

async function recordSuspension(trx: Database, admin: Admin, request: SuspensionRequest, event: string) {
  await recordActivity(trx, {
    instanceId: request.instanceId,
    userId: admin.userId,
    actor: actorName(admin),
    event,
    correlationId: request.correlationId,
  });
}

/**
 * An administrator suspends an instance: from then on its customer begins no operation on it
 * (INSTANCE_SUSPENDED, checked by the operations' compare-and-set), and a running guest is
 * stopped by an operation of the administrator's, begun in the same transaction as the mark.
 * While another operation runs the suspension is refused (SVC-OP-409) and nothing changes, so a
 * power action of the customer's never lands after it. Suspending a suspended instance changes nothing.
 */
export async function suspendInstance(
  deps: ServiceDeps,
  admin: Admin,
  request: SuspensionRequest,
): Promise<SuspensionOutcome> {
  const instance = await findPlacedInstance(deps.db, request.instanceId);
  if (!instance) throw notFound();
  if (instance.suspended_at) return 'unchanged';
  const mark = async (trx: Database) => {
    if (!(await markSuspended(trx, request.instanceId))) return false;
    await recordSuspension(trx, admin, request, 'instance.suspended');
    return true;
  };
  if (instance.status === 'running' && instance.hypervisor_id) {
    try {
      await beginInstanceOperation(
        deps,
        admin,
        {
          instanceId: instance.id,
          hypervisorId: instance.hypervisor_id,
          kind: 'stop',
          workflowType: 'powerInstance',
          input: (operation) => ({ operation, action: 'stop' }),
          correlationId: request.correlationId,
        },
        async (trx) => {
          // Another suspension won the race: this one begins nothing.
          if (!(await mark(trx))) throw new ApiError('SVC-OP-409');
        },
      );
      return 'stopping';
    } catch (error) {
      if ((await findPlacedInstance(deps.db, instance.id))?.suspended_at) return 'unchanged';
      throw error;
    }
  }
  return deps.db.transaction().execute(async (trx) => {
    const facts = await lockSuspensionFacts(trx, instance.id);
    if (!facts) throw notFound();
    if (facts.suspended_at) return 'unchanged';
    if (facts.operation_id) throw new ApiError('SVC-OP-409');
    // Started since it was read: suspending now would leave it running.
    if (facts.status === 'running')
      throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance started meanwhile; suspend it again.' });
    await mark(trx);
    return 'suspended';
  });
}

/** Lifts a suspension; the instance stays in the power state it is in. Lifting none changes nothing. */
export async function unsuspendInstance(
  deps: Pick<ServiceDeps, 'db'>,
  admin: Admin,
  request: SuspensionRequest,
): Promise<'lifted' | 'unchanged'> {
  return deps.db.transaction().execute(async (trx) => {
    if (!(await lockSuspensionFacts(trx, request.instanceId))) throw notFound();
    if (!(await clearSuspension(trx, request.instanceId))) return 'unchanged';
    await recordSuspension(trx, admin, request, 'instance.unsuspended');
    return 'lifted';
  });
}
