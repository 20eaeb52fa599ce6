import type { Database } from '../db/database.js';
import {
  listEvacuationCounts,
  listEvacuationItems,
  moveEvacuationItem,
} from '../db/repositories/moves/evacuation-items.js';
import { cancelPendingItems, listItemsInFlight } from '../db/repositories/moves/evacuation-queue.js';
import { findEvacuation, moveEvacuationState, policyOf } from '../db/repositories/moves/evacuations.js';
import type { EvacuationCheck, EvacuationMoves, EvacuationReport } from '../domain/evacuations/moves.js';
import { itemAfterMove, type MoveFacts } from '../domain/evacuations/outcome.js';
import {
  ACTIVE_EVACUATION_STATES,
  type EvacuationState,
  ITEM_IN_FLIGHT,
} from '../domain/evacuations/states.js';

const DONE = ['moved', 'failed', 'blocked', 'cancelled', 'recovery_required'] as const;

/**
 * An evacuation's bookkeeping. The database is what the run trusts: which instances moved is read
 * from their migrations' records, never from what the run remembers, so a run continued as new,
 * a worker killed mid-way or a child started by the reconciler all come out the same. Each is
 * idempotent: a retried step leaves the database as one would.
 */
export function createEvacuationActivities(db: Database, moves: EvacuationMoves) {
  return {
    beginEvacuationMove: (request: { evacuationId: string; migrationId: string }) =>
      moves.beginEvacuationMove(request),

    /** Settles every instance whose migration ended, by the policy; counts what is under way. */
    async checkEvacuationMoves(request: { evacuationId: string }): Promise<EvacuationCheck> {
      const evacuation = await findEvacuation(db, request.evacuationId);
      if (!evacuation) return { migrating: 0, awaitingRecovery: 0, pending: 0, pause: false };
      const policy = policyOf(evacuation);
      const cancelling = evacuation.state === 'cancelling';
      let migrating = 0;
      let awaitingRecovery = 0;
      let pause = false;
      for (const item of await listItemsInFlight(db, evacuation.id)) {
        const verdict = itemAfterMove(
          {
            state: item.move_state as MoveFacts['state'],
            failedStep: item.failed_step,
            failure: item.failure as EvacuationCheckFailure,
            operationState: item.operation_state,
            attempts: item.attempts,
          },
          policy,
          cancelling,
        );
        if (verdict.state === 'migrating') migrating++;
        if (verdict.state === 'recovery_required') awaitingRecovery++;
        if (verdict.state === item.state) continue;
        await moveEvacuationItem(db, {
          evacuationId: evacuation.id,
          instanceId: item.instance_id,
          from: ITEM_IN_FLIGHT,
          to: verdict.state,
          ...(verdict.reasons ? { reasons: verdict.reasons } : {}),
          notBefore: null,
        });
        pause ||= verdict.pause === true;
      }
      const counts = await listEvacuationCounts(db, [evacuation.id]);
      const pending = counts.find((c) => c.state === 'pending')?.count ?? 0;
      return { migrating, awaitingRecovery, pending, pause };
    },

    async recordEvacuationState(request: {
      evacuationId: string;
      from: EvacuationState[];
      to: EvacuationState;
    }): Promise<void> {
      await moveEvacuationState(db, request.evacuationId, request.from, request.to);
    },

    /** The end: a cancel leaves the instances whose turn had not come; the report of what happened. */
    async finishEvacuation(request: { evacuationId: string; cancelled: boolean }): Promise<EvacuationReport> {
      if (request.cancelled) await cancelPendingItems(db, request.evacuationId);
      const state = request.cancelled ? 'cancelled' : 'completed';
      await moveEvacuationState(db, request.evacuationId, ACTIVE_EVACUATION_STATES, state);
      const items = await listEvacuationItems(db, request.evacuationId);
      const counts: EvacuationReport['counts'] = {};
      for (const item of items) counts[item.state] = (counts[item.state] ?? 0) + 1;
      return {
        evacuation_uuid: request.evacuationId,
        state,
        counts,
        not_moved: items
          .filter((i) => i.state !== 'moved' && (DONE as readonly string[]).includes(i.state))
          .map((i) => ({ instance_uuid: i.instance_id, state: i.state, reasons: i.reasons })),
      };
    },
  };
}

type EvacuationCheckFailure = { code?: string; message?: string } | null;
