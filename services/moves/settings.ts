import type { ConvergencePolicy } from '../../domain/migrations/convergence.js';
import type { MovePolicy } from '../../domain/moves/preflight.js';
import type { Config } from '../../platform/config.js';

// What every kind of move reads of the configuration. The settings keep the names they were given
// when migrations were the only kind (docs/configuration.md `MIGRATION_*`); they hold for storage
// moves too, and this is the one place that reads them.

/** The policy a move's preflight judges with. */
export const movePolicy = (
  config: Pick<Config, 'MIGRATION_AUTO_LIVE' | 'MIGRATION_TRANSFER_MB_PER_S' | 'MIGRATION_LONG_TRANSFER_S'>,
): MovePolicy => ({
  autoLive: config.MIGRATION_AUTO_LIVE,
  transferMbPerSecond: config.MIGRATION_TRANSFER_MB_PER_S,
  longTransferSeconds: config.MIGRATION_LONG_TRANSFER_S,
});

/** How long a move's lease lives between renewals, and how long its old copy is kept after the commit. */
export const moveTimings = (
  config: Pick<Config, 'MIGRATION_LEASE_TTL_MS' | 'MIGRATION_SOURCE_RETENTION_MS'>,
): { leaseTtlMs: number; retainMs: number } => ({
  leaseTtlMs: config.MIGRATION_LEASE_TTL_MS,
  retainMs: config.MIGRATION_SOURCE_RETENTION_MS,
});

/** A live migration's default convergence policy; a request's `convergence` overrides any figure. */
export const convergenceDefaults = (
  config: Pick<
    Config,
    | 'MIGRATION_MAX_DOWNTIME_MS'
    | 'MIGRATION_BANDWIDTH_MBPS'
    | 'MIGRATION_AUTO_CONVERGE'
    | 'MIGRATION_AUTO_CONVERGE_INITIAL_PCT'
    | 'MIGRATION_AUTO_CONVERGE_STEP_PCT'
    | 'MIGRATION_POST_COPY'
    | 'MIGRATION_COMPLETION_TIMEOUT_S_PER_GIB'
    | 'MIGRATION_PROGRESS_TIMEOUT_S'
  >,
): ConvergencePolicy => ({
  max_downtime_ms: config.MIGRATION_MAX_DOWNTIME_MS,
  bandwidth_mbps: config.MIGRATION_BANDWIDTH_MBPS ?? null,
  auto_converge: {
    enabled: config.MIGRATION_AUTO_CONVERGE,
    initial_throttle_pct: config.MIGRATION_AUTO_CONVERGE_INITIAL_PCT,
    step_throttle_pct: config.MIGRATION_AUTO_CONVERGE_STEP_PCT,
  },
  post_copy: config.MIGRATION_POST_COPY,
  completion_timeout_s_per_gib: config.MIGRATION_COMPLETION_TIMEOUT_S_PER_GIB,
  progress_timeout_s: config.MIGRATION_PROGRESS_TIMEOUT_S,
});
