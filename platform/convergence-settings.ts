import { z } from 'zod';
import { CONVERGENCE_BOUNDS, POST_COPY_MODES } from '../domain/migrations/convergence.js';

const figure = (name: keyof typeof CONVERGENCE_BOUNDS) =>
  z.coerce.number().int().min(CONVERGENCE_BOUNDS[name].min).max(CONVERGENCE_BOUNDS[name].max);

/**
 * The default convergence policy of a live move (domain/migrations/convergence.ts), each figure in
 * the bounds a request's is held to; a request's `convergence` overrides any of them. The starting
 * points are Nova's and KubeVirt's: 800 s per GiB to complete, 150 s without progress, neither
 * auto-converge nor post-copy; Nova's 500 ms downtime; QEMU's own throttle steps (20 %, then 10 %).
 */
export const convergenceSettings = {
  MIGRATION_MAX_DOWNTIME_MS: figure('max_downtime_ms').default(500),
  /** Unset: no cap of ours on the memory stream (QEMU's own default applies). */
  MIGRATION_BANDWIDTH_MBPS: figure('bandwidth_mbps').optional(),
  MIGRATION_AUTO_CONVERGE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  MIGRATION_AUTO_CONVERGE_INITIAL_PCT: figure('initial_throttle_pct').default(20),
  MIGRATION_AUTO_CONVERGE_STEP_PCT: figure('step_throttle_pct').default(10),
  MIGRATION_POST_COPY: z.enum(POST_COPY_MODES).default('never'),
  MIGRATION_COMPLETION_TIMEOUT_S_PER_GIB: figure('completion_timeout_s_per_gib').default(800),
  MIGRATION_PROGRESS_TIMEOUT_S: figure('progress_timeout_s').default(150),
};
