import { findOperation } from '../../db/repositories/instances/instance-operation-reads.js';
import { moveEvacuationItem } from '../../db/repositories/moves/evacuation-items.js';
import type { EvacuationRow } from '../../db/repositories/moves/evacuations.js';
import { ApiError } from '../../domain/errors.js';
import type { NextMove } from '../../domain/evacuations/moves.js';
import type { EvacuationKind } from '../../domain/evacuations/states.js';
import type { StorageBackend } from '../../domain/hypervisors.js';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import type { MoveInstanceStorageInput } from '../../domain/storage-moves/run-input.js';
import type { ServiceDeps } from '../context.js';
import { recordMigration } from '../migrations/record.js';
import { recordStorageMove } from '../storage-moves/record.js';
import type { Judged } from './judge.js';

// The writes of an evacuation's move: recorded, put off or blocked, and marked migrating.

/** What the run needs of a recorded move: a migration (a hypervisor's drain) or a storage move (a backend's). */
export interface MoveRecord {
  readonly kind: 'migration' | 'storage_move';
  readonly id: string;
  readonly instance_id: string;
  readonly operation_id: string;
  readonly target_hypervisor_id: string | null;
}

/** How a move's reason names the run that asked for it. */
const RUN_NAMES: Record<EvacuationKind, string> = {
  hypervisor: 'Evacuation',
  backend: 'Backend drain',
  restore: 'Restore',
};

/** The move recorded as an administrator's request would be, or why it was refused after all. */
export async function recordMove(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  evacuation: EvacuationRow,
  targetId: string | undefined,
  instanceId: string,
  moveId: string,
): Promise<MoveRecord | { full: true } | { blocked: Extract<Judged, { verdict: 'busy' | 'blocked' }> }> {
  const actor = { type: 'system' as const, name: `evacuation ${evacuation.id}` };
  const ask = {
    instanceId,
    mode: evacuation.mode,
    reason: `${RUN_NAMES[evacuation.kind]} ${evacuation.id}${evacuation.reason ? `: ${evacuation.reason}` : ''}`,
    correlationId: evacuation.workflow_id,
  };
  try {
    const recorded =
      evacuation.kind === 'backend'
        ? await recordStorageMove(deps, actor, {
            ...ask,
            from: evacuation.from_backend as StorageBackend,
            to: evacuation.to_backend as StorageBackend,
            moveId,
          })
        : await recordMigration(deps, actor, {
            ...ask,
            targetId,
            migrationId: moveId,
            // The drain's policy; one begun before drains had one takes the defaults of the moment.
            convergence: evacuation.convergence ?? undefined,
          });
    // The plane changed since the instance was judged (the target filled up, an operation began):
    // judged again on its next turn, when a lasting reason blocks it. A source with no slot left
    // (another request took it) is waited for, as the judge would have: no try is spent on it.
    if ('blocked' in recorded) {
      const codes = recorded.blocked.map((b) => b.code);
      if (codes.length > 0 && codes.every((c) => c === 'SOURCE_BUSY')) return { full: true };
      return { blocked: { verdict: 'busy', reasons: recorded.blocked } };
    }
    return {
      kind: evacuation.kind === 'backend' ? 'storage_move' : 'migration',
      id: moveId,
      instance_id: instanceId,
      operation_id: recorded.plan.operationId,
      target_hypervisor_id: targetId ?? null,
    };
  } catch (error) {
    // Taken between the preflight and the transaction (an operation began, a lease was taken), or
    // refused by the operations model (a status it does not start from).
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    if (error.code === 'MIGRATION_SOURCE_BUSY') return { full: true };
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
  move: MoveRecord,
): Promise<NextMove> {
  const operation = await findOperation(deps.db, move.operation_id);
  if (!operation) throw new Error(`move ${move.id} has no operation`);
  await moveEvacuationItem(deps.db, {
    evacuationId,
    instanceId: move.instance_id,
    from: ['pending'],
    to: 'migrating',
    ...(move.kind === 'storage_move' ? { storageMoveId: move.id } : { migrationId: move.id }),
    targetId: move.target_hypervisor_id,
    attempt: true,
    reasons: [],
    notBefore: null,
  });
  const started = {
    kind: 'started',
    instanceId: move.instance_id,
    migrationId: move.id,
    workflowId: operation.workflow_id,
  } as const;
  return move.kind === 'storage_move'
    ? {
        ...started,
        workflowType: 'moveInstanceStorage',
        input: operation.workflow_input as MoveInstanceStorageInput,
      }
    : {
        ...started,
        workflowType: 'migrateInstance',
        input: operation.workflow_input as MigrateInstanceInput,
      };
}
