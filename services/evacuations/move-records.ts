import { moveEvacuationItem } from '../../db/repositories/evacuation-items.js';
import type { EvacuationRow } from '../../db/repositories/evacuations.js';
import { findOperation } from '../../db/repositories/instance-operations.js';
import { ApiError } from '../../domain/errors.js';
import type { NextMove } from '../../domain/evacuations/moves.js';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import type { ServiceDeps } from '../context.js';
import { recordMigration } from '../migrations/record.js';
import type { Judged } from './judge.js';

// The writes of an evacuation's move: recorded, put off or blocked, and marked migrating.

export /** What the run needs of a recorded move. */
interface MoveRecord {
  readonly id: string;
  readonly instance_id: string;
  readonly operation_id: string;
  readonly target_hypervisor_id: string;
}

/** The move recorded as an administrator's migration request, or why it was refused after all. */
export async function recordMove(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  evacuation: EvacuationRow,
  targetId: string,
  instanceId: string,
  migrationId: string,
): Promise<MoveRecord | { blocked: Extract<Judged, { verdict: 'busy' | 'blocked' }> }> {
  try {
    const recorded = await recordMigration(
      deps,
      { type: 'system', name: `evacuation ${evacuation.id}` },
      {
        instanceId,
        targetId,
        mode: evacuation.mode,
        reason: `Evacuation ${evacuation.id}${evacuation.reason ? `: ${evacuation.reason}` : ''}`,
        correlationId: evacuation.workflow_id,
        migrationId,
      },
    );
    // The plane changed since the instance was judged (the target filled up, an operation began):
    // judged again on its next turn, when a lasting reason blocks it.
    if ('blocked' in recorded) return { blocked: { verdict: 'busy', reasons: recorded.blocked } };
    return {
      id: recorded.migrationId,
      instance_id: instanceId,
      operation_id: recorded.plan.operationId,
      target_hypervisor_id: targetId,
    };
  } catch (error) {
    // Taken between the preflight and the transaction (an operation began, a lease was taken), or
    // refused by the operations model (a status it does not start from).
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const reasons = [{ code: error.code, detail: error.detail }];
    const passing = error.code === 'INSTANCE_MIGRATING' || error.code === 'SVC-OP-409';
    return { blocked: { verdict: passing ? 'busy' : 'blocked', reasons } };
  }
}

/** A passing refusal puts the instance off for a while, until its tries run out; any other blocks it. */
export async function putOff(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  evacuationId: string,
  item: { instance_id: string; attempts: number },
  judged: Extract<Judged, { verdict: 'busy' | 'blocked' }>,
  maxAttempts: number,
): Promise<boolean> {
  const passing = judged.verdict === 'busy' && item.attempts + 1 < maxAttempts;
  await moveEvacuationItem(deps.db, {
    evacuationId,
    instanceId: item.instance_id,
    from: ['pending'],
    to: passing ? 'pending' : 'blocked',
    reasons: judged.reasons,
    attempt: judged.verdict === 'busy',
    notBefore: passing ? new Date(Date.now() + deps.config.EVACUATION_CHECK_EVERY_MS) : null,
  });
  return passing;
}

/** The move as its run is started: the input recorded with its operation; the instance marked migrating. */
export async function startedFrom(
  deps: Pick<ServiceDeps, 'db'>,
  evacuationId: string,
  migration: MoveRecord,
): Promise<NextMove> {
  const operation = await findOperation(deps.db, migration.operation_id);
  if (!operation) throw new Error(`migration ${migration.id} has no operation`);
  await moveEvacuationItem(deps.db, {
    evacuationId,
    instanceId: migration.instance_id,
    from: ['pending'],
    to: 'migrating',
    migrationId: migration.id,
    targetId: migration.target_hypervisor_id,
    attempt: true,
    reasons: [],
    notBefore: null,
  });
  return {
    kind: 'started',
    instanceId: migration.instance_id,
    migrationId: migration.id,
    workflowId: operation.workflow_id,
    input: operation.workflow_input as MigrateInstanceInput,
  };
}
