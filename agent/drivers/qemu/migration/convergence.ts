import type { AppliedConvergence } from '../../../../domain/agent-tasks/migration.js';
import { bytesPerSecond, type ConvergencePolicy } from '../../../../domain/migrations/convergence.js';
import type { Qmp } from '../guests/qmp.js';

// A live move's convergence policy set on the source's QEMU before `migrate` (docs/qemu.md
// "Convergence"), in QEMU's own names. The capabilities can change only while no migration runs.

/**
 * Sets the policy: auto-converge and post-copy as capabilities (post-copy needs `postcopy-ram` on
 * the target too: target-definition.ts sets it before the guest there listens), the downtime limit,
 * the throttle steps and the bandwidth cap (none: QEMU's own stays) as parameters.
 */
export async function setConvergence(qmp: Qmp, policy: ConvergencePolicy): Promise<void> {
  await qmp.execute('migrate-set-capabilities', {
    capabilities: [
      { capability: 'auto-converge', state: policy.auto_converge.enabled },
      { capability: 'postcopy-ram', state: policy.post_copy !== 'never' },
    ],
  });
  await qmp.execute('migrate-set-parameters', {
    'downtime-limit': policy.max_downtime_ms,
    'cpu-throttle-initial': policy.auto_converge.initial_throttle_pct,
    'cpu-throttle-increment': policy.auto_converge.step_throttle_pct,
    ...(policy.bandwidth_mbps !== null ? { 'max-bandwidth': bytesPerSecond(policy.bandwidth_mbps) } : {}),
  });
}

/** What QEMU holds, read back: the task's result says what the move ran with, not what was asked. */
export async function readConvergence(qmp: Qmp): Promise<AppliedConvergence> {
  const parameters = await qmp.execute<{
    'downtime-limit': number;
    'max-bandwidth': number;
    'cpu-throttle-initial': number;
    'cpu-throttle-increment': number;
  }>('query-migrate-parameters');
  const capabilities = await qmp.execute<{ capability: string; state: boolean }[]>(
    'query-migrate-capabilities',
  );
  const on = (name: string) => capabilities.some((c) => c.capability === name && c.state);
  return {
    max_downtime_ms: parameters['downtime-limit'],
    max_bandwidth_bytes_per_s: parameters['max-bandwidth'],
    auto_converge: on('auto-converge'),
    initial_throttle_pct: parameters['cpu-throttle-initial'],
    step_throttle_pct: parameters['cpu-throttle-increment'],
    post_copy: on('postcopy-ram'),
  };
}

/** The target's half of post-copy: the arriving guest takes pages after it runs (before `migrate-incoming`). */
export async function readyPostCopy(qmp: Qmp): Promise<void> {
  await qmp.execute('migrate-set-capabilities', {
    capabilities: [{ capability: 'postcopy-ram', state: true }],
  });
}
