import type { Database } from '../db/database.js';
import { recordActivity } from '../db/repositories/events/activity-log.js';
import { settleOperation } from '../db/repositories/instances/instance-operation-ends.js';
import { findOperation } from '../db/repositories/instances/instance-operation-reads.js';
import { statusAfterFailure, statusDuring } from '../domain/instances/operations.js';
import type { InstanceStatus } from '../domain/instances/statuses.js';
import { type PowerState, statusOfPowerState } from '../domain/instances/statuses.js';

export interface OperationCompletion {
  readonly operationId: string;
  /** `unchanged`: back to the status the operation began in (a password reset). */
  readonly status: InstanceStatus | 'unchanged';
  readonly detail: Record<string, unknown>;
}

export interface OperationFailure {
  readonly operationId: string;
  readonly cancelled: boolean;
  readonly error: { code: string; message: string };
  readonly compensationFailures: readonly { step: string; message: string }[];
  /** The guest's power state as the hypervisor reported it after the failure: the instance's status. */
  readonly powerState?: PowerState;
}

/**
 * Settling an instance operation: the compare-and-set and its activity-log line in one
 * transaction. Each returns whether it settled; a preempted or already settled operation changes
 * nothing, so a retried activity is harmless.
 */
export function createOperationActivities(db: Database) {
  return {
    async completeOperation(completion: OperationCompletion): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const operation = await findOperation(trx, completion.operationId);
        if (!operation) return false;
        const status = completion.status === 'unchanged' ? operation.from_status : completion.status;
        const instanceId = await settleOperation(trx, {
          operationId: operation.id,
          state: 'succeeded',
          expectedStatus: statusDuring(operation.kind, operation.from_status),
          status,
          outcome: completion.detail,
        });
        if (!instanceId) return false;
        await recordActivity(trx, {
          instanceId,
          actor: 'system',
          event: `instance.${operation.kind}.completed`,
          detail: { operation_id: operation.id, status, ...completion.detail },
          correlationId: operation.correlation_id,
        });
        return true;
      });
    },

    async failOperation(failure: OperationFailure): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const operation = await findOperation(trx, failure.operationId);
        if (!operation) return false;
        const status = failure.powerState
          ? statusOfPowerState(failure.powerState)
          : statusAfterFailure(operation.kind, operation.from_status);
        const outcome = {
          error: failure.error,
          ...(failure.compensationFailures.length > 0
            ? { compensation_failures: failure.compensationFailures }
            : {}),
        };
        const instanceId = await settleOperation(trx, {
          operationId: operation.id,
          state: failure.cancelled ? 'cancelled' : 'failed',
          expectedStatus: statusDuring(operation.kind, operation.from_status),
          status,
          outcome,
        });
        if (!instanceId) return false;
        await recordActivity(trx, {
          instanceId,
          actor: 'system',
          event: `instance.${operation.kind}.${failure.cancelled ? 'cancelled' : 'failed'}`,
          detail: { operation_id: operation.id, status, ...outcome },
          correlationId: operation.correlation_id,
        });
        return true;
      });
    },
  };
}
