import type { AgentTaskParams, AgentTaskType } from '../../../domain/agent-tasks.js';
import type { LiveMigrationFigures } from '../../../domain/migrations/live-progress.js';
import type { TaskContext } from '../driver.js';
import { appliedConvergence } from './convergence.js';
import type { SimulatedState } from './state.js';

// A simulated live move's figures (docs/migration.md "Live progress") where its model gave none
// (live-move.ts reports its own passes): one pass over the guest's memory at the move's bandwidth,
// nothing dirtied again, so no throttle, and a switchover expected to take what is left.

const MIB = 1024 * 1024;

/** The figures when `done` (0 to 1) of the memory has gone. */
export function simulatedFigures(
  memoryMb: number,
  bandwidthBytesPerS: number,
  done: number,
): LiveMigrationFigures {
  const total = memoryMb * MIB;
  const transferred = Math.round(total * Math.min(1, Math.max(0, done)));
  const remaining = total - transferred;
  return {
    kind: 'live_migration',
    transferred_bytes: transferred,
    remaining_bytes: remaining,
    total_bytes: total,
    dirty_rate_bytes_per_s: 0,
    iterations: 1,
    throttle_pct: 0,
    expected_downtime_ms: bandwidthBytesPerS > 0 ? Math.round((remaining / bandwidthBytesPerS) * 1000) : 0,
  };
}

/**
 * The task's context, its progress reports carrying the figures of a `migration.live` move (by the
 * percent reported); any other task's context as it is.
 */
export function withLiveFigures(
  type: AgentTaskType,
  params: unknown,
  state: SimulatedState,
  ctx: TaskContext,
): TaskContext {
  if (type !== 'migration.live') return ctx;
  const { instance_id, convergence } = params as AgentTaskParams<'migration.live'>;
  const memoryMb = state.instances[instance_id]?.memory_mb;
  if (memoryMb === undefined) return ctx;
  const bandwidth = appliedConvergence(convergence).max_bandwidth_bytes_per_s;
  return {
    signal: ctx.signal,
    redeemTransfer: (token) => ctx.redeemTransfer(token),
    progress: (percent, message, details) =>
      ctx.progress(percent, message, details ?? simulatedFigures(memoryMb, bandwidth, percent / 100)),
  };
}
