import { type Actor, actorName, actorUserId } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { mayBegin } from '../../domain/instances/operations.js';
import type { Database } from '../database.js';
import { recordActivity } from '../repositories/events/activity-log.js';
import {
  type BeginResult,
  beginOperation,
  type OperationStart,
} from '../repositories/instances/instance-operations.js';

/**
 * Inside the caller's transaction: the compare-and-set of the operations model and the
 * activity-log line. Throws the refusal (404, 409) when the operation may not begin. Services
 * record a customer's or an administrator's operation with it, the schedules' activities a
 * scheduled run's (a customer's schedule under a customer's rules: a suspended instance refuses it).
 */
export async function recordOperation(
  trx: Database,
  actor: Actor,
  start: Omit<OperationStart, 'actor' | 'byCustomer'>,
  /** Whose rules hold: the actor's own, or a customer's for a system actor acting for one (their schedule). */
  forCustomer = actor.type === 'user',
): Promise<Extract<BeginResult, { begun: true }>> {
  const byCustomer = forCustomer;
  const result = await beginOperation(trx, { ...start, actor: actorName(actor), byCustomer });
  if (!result.begun) {
    if (!result.facts) throw notFound();
    const verdict = mayBegin(start.kind, result.facts, byCustomer ? 'customer' : 'operator');
    throw verdict.ok ? new ApiError('SVC-OP-409') : new ApiError(verdict.code, { detail: verdict.detail });
  }
  await recordActivity(trx, {
    instanceId: start.instanceId,
    userId: actorUserId(actor),
    actor: actorName(actor),
    event: `instance.${start.kind}.requested`,
    detail: {
      operation_id: start.operationId,
      ...(result.preempted ? { preempts: result.preempted.kind } : {}),
    },
    correlationId: start.correlationId,
  });
  return result;
}
