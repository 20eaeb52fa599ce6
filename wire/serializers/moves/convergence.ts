import { convergenceFigures as f } from '../../requests/convergence-fields.js';
import { z } from '../../zod.js';

/** The convergence policy a move was recorded with: every figure, the defaults filled in. */
export const ConvergencePolicyBody = z
  .object({
    max_downtime_ms: f.max_downtime_ms,
    bandwidth_mbps: f.bandwidth_mbps,
    auto_converge: z.object({
      enabled: z.boolean(),
      initial_throttle_pct: f.initial_throttle_pct,
      step_throttle_pct: f.step_throttle_pct,
    }),
    post_copy: f.post_copy,
    completion_timeout_s_per_gib: f.completion_timeout_s_per_gib,
    progress_timeout_s: f.progress_timeout_s,
  })
  .openapi('ConvergencePolicy', {
    description:
      'The convergence policy in force: the request’s figures over the configured defaults (docs/migration.md ' +
      '"Convergence").',
  });
