import { CONVERGENCE_BOUNDS, POST_COPY_MODES } from '../../domain/migrations/convergence.js';
import { z } from '../zod.js';

type Figure = keyof typeof CONVERGENCE_BOUNDS;
const figure = (name: Figure, description: string) => {
  const { min, max } = CONVERGENCE_BOUNDS[name];
  return z
    .number()
    .int()
    .min(min)
    .max(max)
    .openapi({ description: `${description} ${min}–${max}.` });
};

/** Each figure of a convergence policy, described once for the request and the record. */
export const convergenceFigures = {
  max_downtime_ms: figure(
    'max_downtime_ms',
    'The longest the guest may be paused at the switchover, in ms (QEMU’s `downtime-limit`).',
  ),
  bandwidth_mbps: figure(
    'bandwidth_mbps',
    'A cap on the memory stream, in megabits per second (QEMU’s `max-bandwidth`); null: no cap of ours.',
  ).nullable(),
  initial_throttle_pct: figure(
    'initial_throttle_pct',
    'The guest’s CPU throttle when auto-converge first slows it, in % (QEMU’s `cpu-throttle-initial`).',
  ),
  step_throttle_pct: figure(
    'step_throttle_pct',
    'How much more it is slowed each time the move still does not converge, in % (`cpu-throttle-increment`).',
  ),
  post_copy: z.enum(POST_COPY_MODES).openapi({
    description:
      'never: pre-copy only; allow: post-copy may be started (QEMU’s `postcopy-ram` on both hosts); ' +
      'after_timeout: the move switches to post-copy when its completion timeout passes.',
  }),
  completion_timeout_s_per_gib: figure(
    'completion_timeout_s_per_gib',
    'How long the move may take in all, in seconds per GiB of the guest’s memory (Nova’s and KubeVirt’s rule).',
  ),
  progress_timeout_s: figure(
    'progress_timeout_s',
    'How long the move may go without making progress, in seconds.',
  ),
};
const f = convergenceFigures;

/**
 * A request's convergence policy: any figure, the rest from the configured defaults
 * (docs/configuration.md `MIGRATION_*`); taken by a live move, recorded with a cold one too.
 */
export const convergenceRequest = z
  .strictObject({
    max_downtime_ms: f.max_downtime_ms.optional(),
    bandwidth_mbps: f.bandwidth_mbps.optional(),
    auto_converge: z
      .strictObject({
        enabled: z
          .boolean()
          .optional()
          .openapi({ description: 'Whether QEMU slows a guest that outruns the move.' }),
        initial_throttle_pct: f.initial_throttle_pct.optional(),
        step_throttle_pct: f.step_throttle_pct.optional(),
      })
      .optional(),
    post_copy: f.post_copy.optional(),
    completion_timeout_s_per_gib: f.completion_timeout_s_per_gib.optional(),
    progress_timeout_s: f.progress_timeout_s.optional(),
  })
  .openapi('ConvergencePolicyRequest', {
    description:
      'How a live move converges; each figure left out is the configured default’s (docs/migration.md "Convergence").',
  });
