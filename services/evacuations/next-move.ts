import {
  listPendingItems,
  moveEvacuationItem,
  nextDeferredAt,
} from '../../db/repositories/evacuation-items.js';
import { type EvacuationRow, findEvacuation, policyOf } from '../../db/repositories/evacuations.js';
import { findOperation } from '../../db/repositories/instance-operations.js';
import { findMigration } from '../../db/repositories/migrations.js';
import { ApiError } from '../../domain/errors.js';
import type { NextMove } from '../../domain/evacuations/moves.js';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import type { ServiceDeps } from '../context.js';
import { recordMigration } from '../migrations/record.js';
import { type Judged, judgeEvacuee } from './judge.js';

/** What the run needs of a recorded move. */
interface MoveRecord {
  readonly id: string;
  readonly instance_id: string;
  readonly operation_id: string;
  readonly target_hypervisor_id: string;
}

/** How many waiting instances one call judges before it reports that the window must wait. */
const SCAN = 25;

/**
 * The evacuation's next move, recorded as any migration request is (services/migrations/record.ts)
 * and left for the run to start as its child: the first waiting instance, in the plan's order,
 * that a target with a free slot takes. An instance that cannot move is `blocked` with every
 * reason; one refused for a reason that passes (busy, migrating) is put off and tried again, as
 * often as the policy allows. The migration's id comes from the run, so a retried step finds the
 * move its first attempt recorded.
 */
export async function beginEvacuationMove(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  request: { readonly evacuationId: string; readonly migrationId: string },
): Promise<NextMove> {
  const recorded = await findMigration(deps.db, request.migrationId);
  if (recorded) return startedFrom(deps, request.evacuationId, recorded);
  const evacuation = await findEvacuation(deps.db, request.evacuationId);
  if (!evacuation) return { kind: 'none' };
  const policy = policyOf(evacuation);
  let waiting = false;
  for (const item of (await listPendingItems(deps.db, evacuation.id)).slice(0, SCAN)) {
    const judged = await judgeEvacuee(deps, evacuation, policy, item.instance_id);
    if (judged.verdict === 'full') {
      waiting = true;
      continue;
    }
    if (judged.verdict === 'gone') {
      await moveEvacuationItem(deps.db, {
        evacuationId: evacuation.id,
        instanceId: item.instance_id,
        from: ['pending'],
        to: judged.state,
        reasons: judged.reasons,
      });
      continue;
    }
    if (judged.verdict !== 'go') {
      waiting = (await putOff(deps, evacuation.id, item, judged, policy.maxAttempts)) || waiting;
      continue;
    }
    const move = await recordMove(deps, evacuation, judged.targetId, item.instance_id, request.migrationId);
    if ('blocked' in move) {
      waiting = (await putOff(deps, evacuation.id, item, move.blocked, policy.maxAttempts)) || waiting;
      continue;
    }
    return startedFrom(deps, evacuation.id, move);
  }
  if (waiting || (await listPendingItems(deps.db, evacuation.id)).length > 0) return { kind: 'waiting' };
  return (await nextDeferredAt(deps.db, evacuation.id)) ? { kind: 'waiting' } : { kind: 'none' };
}

async function recordMove(
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
    if ('blocked' in recorded) return { blocked: { verdict: 'blocked', reasons: recorded.blocked } };
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
async function putOff(
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
async function startedFrom(
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
