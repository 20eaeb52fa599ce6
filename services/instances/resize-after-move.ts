import { lockCandidate } from '../../db/repositories/hypervisors/placement.js';
import { findOperation } from '../../db/repositories/instances/instance-operation-reads.js';
import {
  heldSizeOf,
  holdInstanceSize,
  replaceHeldSize,
} from '../../db/repositories/instances/instance-size-holds.js';
import { findResizeSubject } from '../../db/repositories/instances/instance-sizes.js';
import { ApiError } from '../../domain/errors.js';
import { checkSizeChange, growthOf, heldDuring, howApplied } from '../../domain/instances/resize.js';
import type { ResizeAfterMove, ResizeBegun } from '../../domain/instances/resize-moves.js';
import { fits } from '../../domain/placement.js';
import type { ResizeInstanceInput } from '../../workflows/resize-instance.js';
import type { ServiceDeps } from '../context.js';
import { holdQuotas } from '../quotas.js';
import { bootCeiling } from './hot-ceiling.js';
import { type PlannedOperation, recordPlannedOperation } from './operations.js';

/**
 * A moving plan change's second half, called by its run once the move committed: the `resize`
 * operation begins on the instance's new hypervisor as a request's would (the compare-and-set, the
 * owner's quotas held and checked, the host locked and the larger size held: the move held it on
 * this host from its start, so only what that does not cover must fit), recorded under the run's
 * own id. Judged afresh from the instance as it stands now: the move kept its size, and the
 * guest's power state decides hot or cold again. A refusal is returned, not thrown: the run ends
 * with it and the instance stays where it moved, as it was, holding its own size again. Begun
 * already (a retried step), the operation's recorded input is answered again.
 */
export async function beginResizeAfterMove(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  request: ResizeAfterMove,
): Promise<ResizeBegun> {
  const recorded = await findOperation(deps.db, request.operationId);
  if (recorded) return begunFrom(recorded.workflow_input as ResizeInstanceInput);
  const subject = await findResizeSubject(deps.db, request.instanceId);
  if (!subject?.hypervisor_id)
    return { ok: false, code: 'SVC-CONFLICT-409', detail: 'The instance is not placed after its move.' };
  const hypervisorId = subject.hypervisor_id;
  const from = { cpu_cores: subject.cpu_cores, memory_mb: subject.memory_mb, disk_mb: subject.disk_mb };
  const { to } = request;
  const held = heldDuring(from, to);
  const refused = async (code: string, detail: string): Promise<ResizeBegun> => {
    // The room the move held for the change goes back, unless another change took it since.
    await replaceHeldSize(deps.db, request.instanceId, { expected: held, size: from });
    return { ok: false, code, detail };
  };
  const sizes = checkSizeChange(from, to);
  if (sizes !== 'unchanged' && !sizes.ok) return refused(sizes.code, sizes.detail);
  const { mode } = howApplied(from, to, subject.ceiling, subject.status === 'running');
  const ceiling = mode === 'cold' ? bootCeiling(deps.config, to) : undefined;
  const input: ResizeInstanceInput = {
    operation: {
      operationId: request.operationId,
      instanceId: request.instanceId,
      hypervisorId,
      kind: 'resize',
      correlationId: request.correlationId,
      timing: request.timing,
    },
    from,
    to,
    mode,
    planId: request.planId,
    fromCeiling: subject.ceiling,
    ...(ceiling ? { ceiling } : {}),
  };
  const plan: PlannedOperation<'resizeInstance'> = {
    request: {
      instanceId: request.instanceId,
      hypervisorId,
      kind: 'resize',
      workflowType: 'resizeInstance',
      input: () => input,
      correlationId: request.correlationId,
    },
    operationId: request.operationId,
    workflowId: request.workflowId,
    input,
  };
  try {
    await deps.db.transaction().execute(async (trx) => {
      await recordPlannedOperation(trx, request.actor, plan);
      (await holdQuotas(trx, subject.user_id))({
        cpu_cores: to.cpu_cores - from.cpu_cores,
        memory_mb: to.memory_mb - from.memory_mb,
        disk_mb: to.disk_mb - from.disk_mb,
      });
      const host = await lockCandidate(trx, hypervisorId);
      // The move held the new size on this host from its start; only what it does not cover is new.
      const already = (await heldSizeOf(trx, request.instanceId)) ?? from;
      if (!host || !fits(host, growthOf(already, held)))
        throw new ApiError('SVC-CAPACITY-409', {
          detail: 'The hypervisor the instance moved to no longer has the room for the new size.',
        });
      await holdInstanceSize(trx, request.instanceId, held);
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return refused(error.code, error.detail);
  }
  return begunFrom(input);
}

const begunFrom = (input: ResizeInstanceInput): ResizeBegun => ({
  ok: true,
  hypervisorId: input.operation.hypervisorId,
  from: input.from,
  mode: input.mode,
  fromCeiling: input.fromCeiling,
  ...(input.ceiling ? { ceiling: input.ceiling } : {}),
});
