import { z } from 'zod';

// A live move's convergence policy (docs/migration.md "Convergence"): how much downtime the
// switchover may take, how fast the memory may go, whether the guest is slowed (auto-converge) or
// switched early (post-copy) to let the move finish, and how long it may take before it is given
// up. Every migration records the policy in force, the request's fields over the configured
// defaults (MIGRATION_* in docs/configuration.md).

export const POST_COPY_MODES = ['never', 'allow', 'after_timeout'] as const;
export type PostCopyMode = (typeof POST_COPY_MODES)[number];

/**
 * The accepted range of each figure, for a request and for the configured defaults alike.
 * VirtFusion's per-call bounds where it has one (max downtime 5–9000 ms, abort-after 60–86400 s,
 * auto-converge initial 1–70 %, increment 1–15 %); a bandwidth cap up to 400 Gbit/s; a completion
 * timeout per GiB of memory up to a day.
 */
export const CONVERGENCE_BOUNDS = {
  max_downtime_ms: { min: 5, max: 9000 },
  bandwidth_mbps: { min: 1, max: 400_000 },
  initial_throttle_pct: { min: 1, max: 70 },
  step_throttle_pct: { min: 1, max: 15 },
  completion_timeout_s_per_gib: { min: 1, max: 86_400 },
  progress_timeout_s: { min: 60, max: 86_400 },
} as const;

type Bounded = keyof typeof CONVERGENCE_BOUNDS;
/** An integer within its figure's bounds. */
export const boundedInt = (name: Bounded) =>
  z.number().int().min(CONVERGENCE_BOUNDS[name].min).max(CONVERGENCE_BOUNDS[name].max);

/** The policy in force for one move: every figure given. */
export const convergencePolicy = z.object({
  max_downtime_ms: boundedInt('max_downtime_ms'),
  /** Megabits per second the memory stream may use; null: no cap of ours (the hypervisor's own applies). */
  bandwidth_mbps: boundedInt('bandwidth_mbps').nullable(),
  auto_converge: z.object({
    enabled: z.boolean(),
    initial_throttle_pct: boundedInt('initial_throttle_pct'),
    step_throttle_pct: boundedInt('step_throttle_pct'),
  }),
  post_copy: z.enum(POST_COPY_MODES),
  completion_timeout_s_per_gib: boundedInt('completion_timeout_s_per_gib'),
  progress_timeout_s: boundedInt('progress_timeout_s'),
});
export type ConvergencePolicy = z.infer<typeof convergencePolicy>;

/** What a request may say of the policy: any figure, the rest from the defaults. */
export interface ConvergenceRequest {
  readonly max_downtime_ms?: number | undefined;
  readonly bandwidth_mbps?: number | null | undefined;
  readonly auto_converge?:
    | {
        readonly enabled?: boolean | undefined;
        readonly initial_throttle_pct?: number | undefined;
        readonly step_throttle_pct?: number | undefined;
      }
    | undefined;
  readonly post_copy?: PostCopyMode | undefined;
  readonly completion_timeout_s_per_gib?: number | undefined;
  readonly progress_timeout_s?: number | undefined;
}

/** The policy in force: each figure the request gives, else the default's. */
export function policyInForce(
  defaults: ConvergencePolicy,
  asked: ConvergenceRequest = {},
): ConvergencePolicy {
  const auto = asked.auto_converge ?? {};
  return {
    max_downtime_ms: asked.max_downtime_ms ?? defaults.max_downtime_ms,
    bandwidth_mbps: asked.bandwidth_mbps === undefined ? defaults.bandwidth_mbps : asked.bandwidth_mbps,
    auto_converge: {
      enabled: auto.enabled ?? defaults.auto_converge.enabled,
      initial_throttle_pct: auto.initial_throttle_pct ?? defaults.auto_converge.initial_throttle_pct,
      step_throttle_pct: auto.step_throttle_pct ?? defaults.auto_converge.step_throttle_pct,
    },
    post_copy: asked.post_copy ?? defaults.post_copy,
    completion_timeout_s_per_gib: asked.completion_timeout_s_per_gib ?? defaults.completion_timeout_s_per_gib,
    progress_timeout_s: asked.progress_timeout_s ?? defaults.progress_timeout_s,
  };
}

/** Bytes per second of a cap in megabits per second (QEMU's `max-bandwidth` is in bytes). */
export const bytesPerSecond = (mbps: number): number => mbps * 125_000;

/**
 * How long a move of `movedMb` (the guest's memory and the disks mirrored with it) may take in all
 * (Nova's and KubeVirt's rule: so many seconds per GiB); convergence-watch.ts applies it.
 */
export const completionTimeoutS = (policy: ConvergencePolicy, movedMb: number): number =>
  Math.ceil((policy.completion_timeout_s_per_gib * movedMb) / 1024);

/**
 * What a live move carries past its disk transfer, in MiB, as the panel knows it before the move:
 * the guest's memory, its root disk and its volumes (QEMU mirrors every local disk in full during
 * the move). An upper bound of what the hypervisor counts: it counts only the disks it mirrors.
 */
export const liveMovedMb = (
  instance: { readonly memory_mb: number; readonly disk_mb: number },
  volumes: readonly { readonly sizeMb: number }[] = [],
): number => instance.memory_mb + instance.disk_mb + volumes.reduce((sum, v) => sum + v.sizeMb, 0);

/**
 * What the live step may take beyond the move's completion timeout: the wait for an agent to take
 * the task (`AGENT_TASK_PICKUP_TIMEOUT_MS`, 5 minutes by default), the switchover, and what
 * post-copy still pulls once the timeout switched to it.
 */
export const LIVE_STEP_MARGIN_S = 3600;

/**
 * The longest the panel lets a live move's step run (docs/migration.md "When a move cannot
 * converge"): its completion timeout and the margin. Shorter, the step's activity would time out
 * (and be tried again, or the move wait for an operator) while the hypervisor still held the move
 * to a policy that had not given it up.
 */
export const liveStepLimitS = (policy: ConvergencePolicy, movedMb: number): number =>
  completionTimeoutS(policy, movedMb) + LIVE_STEP_MARGIN_S;

/** The policy in force in one line, as `cloudsvc:migration:status` and the migration's page show it. */
export function policyInWords(policy: ConvergencePolicy): string {
  const auto = policy.auto_converge;
  return [
    `downtime ≤ ${policy.max_downtime_ms} ms`,
    policy.bandwidth_mbps === null ? 'no bandwidth cap' : `cap ${policy.bandwidth_mbps} Mbit/s`,
    auto.enabled
      ? `auto-converge ${auto.initial_throttle_pct}% +${auto.step_throttle_pct}%`
      : 'auto-converge off',
    `post-copy ${policy.post_copy}`,
    `${policy.completion_timeout_s_per_gib} s/GiB to complete`,
    `${policy.progress_timeout_s} s without progress`,
  ].join(', ');
}
