import { statusAfterFailure, statusDuring } from '../../domain/instances/operations.js';
import { type PowerState, statusOfPowerState } from '../../domain/instances/statuses.js';
import type { Database } from '../database.js';
import { recordActivity } from '../repositories/events/activity-log.js';
import { settleOperation } from '../repositories/instances/instance-operation-ends.js';
import { findOperation } from '../repositories/instances/instance-operation-reads.js';
import { releaseMoveLease } from '../repositories/moves/move-leases.js';

/**
 * Ends a move's hold on its instance (a migration's, a storage move's), in the caller's
 * transaction: its operation settled, its lease released, the activity log told
 * (`instance.<kind>.completed|failed|cancelled`). The status is what the hypervisor reported; without
 * it, what the operation's rules give.
 */
export async function releaseHeldInstance(
  trx: Database,
  hold: {
    /** The move whose id the lease holds. */
    readonly leaseId: string;
    readonly operationId: string;
    readonly outcome: 'succeeded' | 'failed' | 'cancelled';
    /** Recorded on the operation and in the activity log, the move's id among it. */
    readonly detail: Record<string, unknown>;
    readonly reported?: PowerState | undefined;
  },
): Promise<void> {
  const operation = await findOperation(trx, hold.operationId);
  if (!operation) return;
  const status = hold.reported
    ? statusOfPowerState(hold.reported)
    : hold.outcome === 'succeeded'
      ? operation.from_status
      : statusAfterFailure(operation.kind, operation.from_status);
  const instanceId = await settleOperation(trx, {
    operationId: hold.operationId,
    state: hold.outcome,
    expectedStatus: statusDuring(operation.kind, operation.from_status),
    status,
    outcome: hold.detail,
  });
  await releaseMoveLease(trx, hold.leaseId);
  if (instanceId) {
    await recordActivity(trx, {
      instanceId,
      actor: 'system',
      event: `instance.${operation.kind}.${hold.outcome === 'succeeded' ? 'completed' : hold.outcome}`,
      detail: { ...hold.detail, status },
      correlationId: operation.correlation_id,
    });
  }
}
