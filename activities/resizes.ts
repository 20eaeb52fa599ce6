import type { Database } from '../db/database.js';
import { holdInstanceSize } from '../db/repositories/instances/instance-size-holds.js';
import { setInstanceSize } from '../db/repositories/instances/instance-size-reports.js';
import type { Resources } from '../domain/capacity.js';
import type { HotplugCeiling } from '../domain/instances/hot-resize.js';
import type { ResizeAfterMove, ResizeMoves } from '../domain/instances/resize-moves.js';

/** A plan change's bookkeeping; each idempotent, so a retried activity leaves what one would. */
export function createResizeActivities(db: Database, moves: ResizeMoves) {
  return {
    /** A moving change's `resize` operation begun on the new hypervisor (services/instances/resize-after-move.ts). */
    beginResizeAfterMove: (request: ResizeAfterMove) => moves.beginResizeAfterMove(request),

    /** The room the instance's reservation holds: put back to the size before a failed change. */
    async holdInstanceSize(record: { instanceId: string; size: Resources }): Promise<void> {
      await holdInstanceSize(db, record.instanceId, record.size);
    },

    /**
     * The change applied, as the hypervisor reported it: the instance's size, its plan and the room
     * its guest has, and the reservation at the new size, in one transaction.
     */
    async recordResize(record: {
      instanceId: string;
      size: Resources;
      /** The plan the instance is now on; null: it keeps its own (an administrator's own size). */
      planId: string | null;
      /** The room to grow a cold change booted the guest with (null: none); absent: unchanged. */
      ceiling?: HotplugCeiling | null;
    }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await setInstanceSize(trx, record.instanceId, {
          size: record.size,
          planId: record.planId,
          ceiling: record.ceiling,
        });
        await holdInstanceSize(trx, record.instanceId, record.size);
      });
    },
  };
}
