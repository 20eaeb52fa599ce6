import { lockCandidate } from '../../db/repositories/hypervisors/placement.js';
import { holdInstanceSize } from '../../db/repositories/instances/instance-size-holds.js';
import { findResizeSubject } from '../../db/repositories/instances/instance-sizes.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import { growthOf, heldDuring } from '../../domain/instances/resize.js';
import { fits, shortfallOf } from '../../domain/placement.js';
import type { ServiceDeps } from '../context.js';
import { holdQuotas } from '../quotas.js';
import { bootCeiling } from './hot-ceiling.js';
import { beginInstanceOperation } from './operations.js';
import { judgeResize, type ResizeJudgement, type ResizeQuestion } from './resize-judgement.js';
import { moveThenResize } from './resize-move.js';

export interface ResizeOrder extends ResizeQuestion {
  readonly correlationId: string | null;
}

/** A plan change judged and, unless nothing would change, begun. */
export interface ResizeAccepted {
  readonly judgement: ResizeJudgement;
  /** The `resize` operation begun; null when the instance has that size and plan already. */
  readonly operationId: string | null;
}

/**
 * Changes an instance's size (docs/api.md "Plan changes"). The judgement refuses what may not
 * be; then, in the transaction that begins the `resize` operation (its compare-and-set refuses a
 * second change or any operation under way), the owner's quotas are held and checked, the
 * hypervisor is locked, and the instance's reservation grows to the larger of the two sizes, so
 * two changes on one host never share its last free room and two orders of one owner never share
 * the last of a quota. The `resizeInstance` workflow applies it on the hypervisor and settles.
 * A host without the room: refused (`RESIZE_NEEDS_MOVE`, or `SVC-CAPACITY-409` when no host has
 * it), or moved first where the asker may (resize-move.ts).
 */
export async function requestResize(
  deps: ServiceDeps,
  who: Asker,
  order: ResizeOrder,
): Promise<ResizeAccepted> {
  const judgement = await judgeResize(deps, who, order);
  if (judgement.unchanged) return { judgement, operationId: null };
  const { subject, from, to, room } = judgement;
  if (room.kind === 'none')
    throw new ApiError('SVC-CAPACITY-409', {
      detail: `Neither the instance’s hypervisor nor another of its location has the room for the new size${who.type === 'admin' ? ` (${room.shortfall.join('; ')})` : ''}.`,
    });
  if (room.kind === 'move') {
    if (judgement.moveAllowed)
      return {
        judgement,
        operationId: await moveThenResize(deps, who, { ...judgement, room }, order.correlationId),
      };
    throw new ApiError('RESIZE_NEEDS_MOVE', {
      detail:
        who.type === 'admin'
          ? `The instance’s hypervisor lacks the room for the new size (${room.shortfall.join('; ')}); ${room.target.name} has it: ask again with \`allow_move: true\`.`
          : 'The instance’s hypervisor lacks the room for the new size, and another has it: the instance must move first.',
    });
  }
  const ceiling = judgement.mode === 'cold' ? bootCeiling(deps.config, to) : undefined;
  const begun = await beginInstanceOperation(
    deps,
    who,
    {
      instanceId: subject.id,
      hypervisorId: subject.hypervisor_id,
      kind: 'resize',
      workflowType: 'resizeInstance',
      input: (operation) => ({
        operation,
        from,
        to,
        mode: judgement.mode,
        planId: judgement.toPlan?.id ?? null,
        fromCeiling: judgement.ceiling,
        ...(ceiling ? { ceiling } : {}),
      }),
      correlationId: order.correlationId,
      undoIfNotStarted: (db) => holdInstanceSize(db, subject.id, from),
    },
    async (trx) => {
      // The owner's quotas before the hypervisor's lock (services/quotas.ts).
      (await holdQuotas(trx, subject.user_id))({
        cpu_cores: to.cpu_cores - from.cpu_cores,
        memory_mb: to.memory_mb - from.memory_mb,
        disk_mb: to.disk_mb - from.disk_mb,
      });
      const host = await lockCandidate(trx, subject.hypervisor_id);
      const now = await findResizeSubject(trx, subject.id);
      if (
        now?.hypervisor_id !== subject.hypervisor_id ||
        now.cpu_cores !== from.cpu_cores ||
        now.memory_mb !== from.memory_mb ||
        now.disk_mb !== from.disk_mb
      )
        throw new ApiError('SVC-OP-409', { detail: 'The instance changed meanwhile; try again.' });
      const growth = growthOf(from, to);
      if (!host || !fits(host, growth))
        throw new ApiError('SVC-CAPACITY-409', {
          detail: `The instance’s hypervisor lacks the room for the new size${host && who.type === 'admin' ? ` (${shortfallOf(host, growth).join('; ')})` : ''}.`,
        });
      await holdInstanceSize(trx, subject.id, heldDuring(from, to));
    },
  );
  return { judgement, operationId: begun.operationId };
}
