import { placementCandidates } from '../../db/repositories/hypervisors/placement.js';
import {
  findPlanOffer,
  findResizeSubject,
  type PlanOfferRow,
  type ResizeSubject,
} from '../../db/repositories/instances/instance-sizes.js';
import { findInstanceOfUser } from '../../db/repositories/instances/instances.js';
import { groupSpreadOfInstance } from '../../db/repositories/instances/placement-groups.js';
import type { Asker } from '../../domain/actors.js';
import type { Resources } from '../../domain/capacity.js';
import { ApiError, notFound, type Verdict } from '../../domain/errors.js';
import type { HotplugCeiling, ResizeMode } from '../../domain/instances/hot-resize.js';
import { mayBegin } from '../../domain/instances/operations.js';
import {
  checkPlanChange,
  checkSizeChange,
  howApplied,
  mayMove,
  type ResizeRoom,
  roomFor,
  shrinksOf,
} from '../../domain/instances/resize.js';
import type { ServiceDeps } from '../context.js';
import { refuseOverQuota } from '../quotas.js';

/** What a plan change asks for: a plan by code, or (an administrator's) sizes of its own. */
export type ResizeTarget =
  | { readonly plan: string }
  | { readonly cpu_cores?: number; readonly memory_mb?: number; readonly disk_mb?: number };

export interface ResizeQuestion {
  readonly instanceId: string;
  readonly target: ResizeTarget;
  /** Whether the change may move the instance first when its host lacks the room. */
  readonly allowMove: boolean;
}

/**
 * What a plan change would do, worked out before anything is written: what the dry run answers
 * and what the request carries out.
 */
export interface ResizeJudgement {
  readonly subject: ResizeSubject & { hypervisor_id: string };
  readonly from: Resources;
  readonly to: Resources;
  readonly fromPlan: PlanOfferRow | null;
  /** The plan the instance takes; null for an administrator's own size (it keeps its plan). */
  readonly toPlan: PlanOfferRow | null;
  /** Nothing would change: the request begins nothing. */
  readonly unchanged: boolean;
  readonly mode: ResizeMode;
  readonly reasons: string[];
  readonly shrinks: ('cpu_cores' | 'memory_mb')[];
  readonly room: ResizeRoom;
  /** Whether this asker's change may move the instance (asked for, and allowed to). */
  readonly moveAllowed: boolean;
  readonly ceiling: HotplugCeiling | null;
}

const asker = (who: Asker) => (who.type === 'user' ? 'customer' : 'operator');

const refuse = (verdict: Verdict, field?: string): void => {
  if (verdict.ok) return;
  throw new ApiError(verdict.code, {
    detail: verdict.detail,
    ...(field ? { fields: [{ field, detail: verdict.detail }] } : {}),
  });
};

/**
 * Judges a plan change, in the order a caller can act on: the instance in reach (404), the plan
 * (unknown or not public, another location's, not on the instance's upgrade path), the sizes (a
 * disk never shrinks), whether an operation may begin now (suspended, migrating, busy), the
 * owner's quotas (read without a lock: the request checks again under it), then where the room
 * comes from and how the change reaches the guest. Throws the refusal's catalogue error; writes
 * nothing.
 */
export async function judgeResize(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  who: Asker,
  question: ResizeQuestion,
): Promise<ResizeJudgement> {
  if (who.type === 'user' && !(await findInstanceOfUser(deps.db, who.userId, question.instanceId)))
    throw notFound();
  const subject = await findResizeSubject(deps.db, question.instanceId);
  if (!subject) throw notFound();
  const hypervisorId = subject.hypervisor_id;
  if (!hypervisorId) throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
  const from = { cpu_cores: subject.cpu_cores, memory_mb: subject.memory_mb, disk_mb: subject.disk_mb };

  let toPlan: PlanOfferRow | null = null;
  let to: Resources;
  if ('plan' in question.target) {
    const plan = await findPlanOffer(deps.db, question.target.plan);
    refuse(checkPlanChange(plan, subject, asker(who)), 'plan');
    toPlan = plan!;
    to = { cpu_cores: toPlan.cpu_cores, memory_mb: toPlan.memory_mb, disk_mb: toPlan.disk_mb };
  } else {
    to = {
      cpu_cores: question.target.cpu_cores ?? from.cpu_cores,
      memory_mb: question.target.memory_mb ?? from.memory_mb,
      disk_mb: question.target.disk_mb ?? from.disk_mb,
    };
  }
  const sizes = checkSizeChange(from, to);
  if (sizes !== 'unchanged') refuse(sizes, 'plan' in question.target ? 'plan' : 'disk_mb');
  const unchanged = sizes === 'unchanged' && (toPlan === null || toPlan.id === subject.plan_id);

  refuse(
    mayBegin(
      'resize',
      {
        status: subject.status,
        runningOperation: subject.running_operation,
        migrating: subject.migrating,
        suspended: subject.suspended,
      },
      asker(who),
    ),
  );
  await refuseOverQuota(deps.db, subject.user_id, {
    cpu_cores: to.cpu_cores - from.cpu_cores,
    memory_mb: to.memory_mb - from.memory_mb,
    disk_mb: to.disk_mb - from.disk_mb,
  });

  const candidates = await placementCandidates(deps.db, subject.location_id);
  const host = candidates.find((c) => c.id === hypervisorId);
  if (!host) throw notFound();
  const room = roomFor(host, candidates, from, to, await groupSpreadOfInstance(deps.db, subject.id));
  const { mode, reasons } = howApplied(from, to, subject.ceiling, subject.status === 'running');
  return {
    subject: { ...subject, hypervisor_id: hypervisorId },
    from,
    to,
    fromPlan: subject.plan,
    toPlan,
    unchanged,
    mode,
    reasons,
    shrinks: shrinksOf(from, to),
    room,
    moveAllowed: mayMove(asker(who), question.allowMove, deps.config.RESIZE_CUSTOMER_MOVES),
    ceiling: subject.ceiling,
  };
}
