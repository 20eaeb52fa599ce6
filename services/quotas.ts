import type { Database } from '../db/database.js';
import {
  findUserQuotas,
  lockUserQuotas,
  replaceUserQuotas,
  userUsage,
} from '../db/repositories/accounts/user-quotas.js';
import { recordActivity } from '../db/repositories/events/activity-log.js';
import { type Actor, actorName } from '../domain/actors.js';
import { ApiError, notFound } from '../domain/errors.js';
import {
  anyLimit,
  type QuotaDelta,
  type QuotaLimits,
  type QuotaUsage,
  withinQuotas,
} from '../domain/quotas.js';
import type { ServiceDeps } from './context.js';

// Per-user quotas (issue 48 item 5; docs/api.md "Quotas"): set by administrators, read by the
// customer, and held by every order that adds to what a user has.

export interface QuotaStanding {
  readonly limits: QuotaLimits;
  readonly usage: QuotaUsage;
  /** When an administrator last set them; null while the user has never had any. */
  readonly updatedAt: Date | null;
}

/** Checks an order's delta against the usage counted under the user's lock; throws QUOTA_EXCEEDED. */
export type QuotaCheck = (delta: QuotaDelta) => void;

/**
 * Holds the user's quotas for the rest of the caller's transaction, which must be the one that
 * writes the order's rows: the count and the insert are then one step, and a second order of the
 * same user waits here and counts the first. Take it before a hypervisor's or a pool's lock (after
 * the instance's or volume's own hold, where the order has one), so every path locks in one order.
 * An unlimited user's usage is not counted; their check passes.
 */
export async function holdQuotas(trx: Database, userId: string): Promise<QuotaCheck> {
  const limits = await lockUserQuotas(trx, userId);
  if (!limits || !anyLimit(limits)) return () => {};
  const usage = await userUsage(trx, userId);
  return (delta) => checkAgainst(limits, usage, delta);
}

/**
 * The same check read without a lock, before an order counts against anything else (the creation
 * rate limit): a customer at a limit is refused with nothing written. The locked check still
 * decides; this one only answers early.
 */
export async function refuseOverQuota(db: Database, userId: string, delta: QuotaDelta): Promise<void> {
  const quotas = await findUserQuotas(db, userId);
  if (!quotas || !anyLimit(quotas.limits)) return;
  checkAgainst(quotas.limits, await userUsage(db, userId), delta);
}

function checkAgainst(limits: QuotaLimits, usage: QuotaUsage, delta: QuotaDelta): void {
  const verdict = withinQuotas(limits, usage, delta);
  if (!verdict.ok)
    throw new ApiError(verdict.code, { detail: verdict.detail, meta: { ...verdict.exceeded } });
}

/** The user's limits and usage; 404 for an unknown user. */
export async function quotaStanding(db: Database, userId: string): Promise<QuotaStanding> {
  const quotas = await findUserQuotas(db, userId);
  if (!quotas) throw notFound();
  return { limits: quotas.limits, usage: await userUsage(db, userId), updatedAt: quotas.updatedAt };
}

/**
 * An administrator (or the operator's CLI) sets every limit of a user at once (null: unlimited). A limit below what the
 * user holds is taken: nothing is removed, and the user can give back but not grow past it.
 */
export async function setUserQuotas(
  deps: Pick<ServiceDeps, 'db'>,
  admin: Extract<Actor, { type: 'admin' | 'system' }>,
  request: { userId: string; limits: QuotaLimits; correlationId: string | null },
): Promise<QuotaStanding> {
  const { userId, limits } = request;
  await deps.db.transaction().execute(async (trx) => {
    const before = await lockUserQuotas(trx, userId);
    if (!before) throw notFound();
    await replaceUserQuotas(trx, userId, limits);
    // In the user's activity log, as the provider's other changes to an account are.
    await recordActivity(trx, {
      userId,
      actor: actorName(admin),
      event: 'user.quotas_set',
      detail: { from: before, to: limits },
      correlationId: request.correlationId,
    });
  });
  return quotaStanding(deps.db, userId);
}
