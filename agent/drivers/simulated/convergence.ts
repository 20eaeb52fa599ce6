import type { AppliedConvergence } from '../../../domain/agent-tasks/migration.js';
import { bytesPerSecond, type ConvergencePolicy } from '../../../domain/migrations/convergence.js';

// A live move's convergence policy on the simulated host: recorded as QEMU would hold it, and
// honoured. A guest that dirties no memory converges at its first pass and its downtime is the
// switchover's fixed cost, never above the policy's limit; a busy one goes through the model of
// live-move.ts.

/** QEMU's own figures, which a move without a policy runs with. */
const HYPERVISOR_DEFAULTS: AppliedConvergence = {
  max_downtime_ms: 300,
  max_bandwidth_bytes_per_s: 128 * 1024 * 1024,
  auto_converge: false,
  initial_throttle_pct: 20,
  step_throttle_pct: 10,
  post_copy: false,
};

/** The switchover's pause on the simulated host, in ms. */
export const SWITCHOVER_MS = 12;

export function appliedConvergence(policy: ConvergencePolicy | undefined): AppliedConvergence {
  if (!policy) return HYPERVISOR_DEFAULTS;
  return {
    max_downtime_ms: policy.max_downtime_ms,
    max_bandwidth_bytes_per_s:
      policy.bandwidth_mbps === null
        ? HYPERVISOR_DEFAULTS.max_bandwidth_bytes_per_s
        : bytesPerSecond(policy.bandwidth_mbps),
    auto_converge: policy.auto_converge.enabled,
    initial_throttle_pct: policy.auto_converge.initial_throttle_pct,
    step_throttle_pct: policy.auto_converge.step_throttle_pct,
    post_copy: policy.post_copy !== 'never',
  };
}

/** The downtime a converged move reports: the switchover's, held under the limit. */
export const downtimeUnder = (applied: AppliedConvergence): number =>
  Math.min(SWITCHOVER_MS, applied.max_downtime_ms);
