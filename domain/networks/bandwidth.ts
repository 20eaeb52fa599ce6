/**
 * Bandwidth is billed per calendar month in UTC (SPEC.md §4 "bandwidth"): every byte an agent
 * reports counts in the month its sample is dated, inbound (received by the guest) and outbound
 * (sent by it) apart. Agents report the bytes since their previous sample of the instance, so a
 * counter reset (a reboot, a migration) loses nothing and counts nothing twice.
 */

/** Earlier periods shown beside the current one. */
export const BANDWIDTH_HISTORY_PERIODS = 12;

export interface BillingPeriod {
  /** `YYYY-MM`. */
  readonly period: string;
  /** The first instant of the month (UTC), as the database keys it. */
  readonly startsAt: Date;
  /** The first instant of the next month. */
  readonly endsAt: Date;
}

/** The billing period `date` falls in; `offset` months later (negative: earlier). */
export function billingPeriodOf(date: Date, offset = 0): BillingPeriod {
  const startsAt = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
  const endsAt = new Date(Date.UTC(startsAt.getUTCFullYear(), startsAt.getUTCMonth() + 1, 1));
  return { period: startsAt.toISOString().slice(0, 7), startsAt, endsAt };
}
