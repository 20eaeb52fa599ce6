import type { ConvergencePolicy } from './convergence.js';

/**
 * The cap one move out of a hypervisor takes under that hypervisor's outbound bandwidth budget
 * (docs/migration.md "Moves out of one hypervisor"): the budget split evenly over
 * the MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR moves that may be under way at once, so together they
 * never exceed it, or the policy's own cap when that is lower. No budget: the policy's cap as it
 * is. A share is at least 1 Mbit/s, the smallest cap a policy can hold.
 */
export function budgetedBandwidth(
  asked: number | null,
  host: { readonly budgetMbps: number | null; readonly maxOutbound: number },
): number | null {
  if (host.budgetMbps === null) return asked;
  const share = Math.max(1, Math.floor(host.budgetMbps / host.maxOutbound));
  return asked === null ? share : Math.min(asked, share);
}

/** The policy in force for one move out of a hypervisor: its cap within the host's budget. */
export const withinBudget = (
  policy: ConvergencePolicy,
  host: { readonly budgetMbps: number | null; readonly maxOutbound: number },
): ConvergencePolicy => ({ ...policy, bandwidth_mbps: budgetedBandwidth(policy.bandwidth_mbps, host) });
