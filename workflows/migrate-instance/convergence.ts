import { patched } from '@temporalio/workflow';
import { liveMovedMb, liveStepLimitS } from '../../domain/migrations/convergence.js';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import { PATCHES } from '../lib/patches.js';
import { liveMoveStep } from '../lib/steps.js';
import type { MigrationTasks } from './tasks.js';

// A live move's convergence policy, as its tasks carry it (docs/migration.md "Convergence"). Runs
// begun before moves had one carry none and record no marker: their input has no policy.

const carried = (input: MigrateInstanceInput) =>
  input.convergence !== undefined && patched(PATCHES.migrationConvergencePolicy.id)
    ? input.convergence
    : undefined;

/** The source's `migration.live` parameter: the policy the hypervisor sets before the memory moves. */
export function convergenceOf(input: MigrateInstanceInput) {
  const convergence = carried(input);
  return convergence ? { convergence } : {};
}

/** The target's `migration.define_target` parameter: a live move that may use post-copy readies its guest for it. */
export function postCopyOf(input: MigrateInstanceInput) {
  if (input.strategy !== 'live') return {};
  const convergence = carried(input);
  return convergence ? { post_copy: convergence.post_copy !== 'never' } : {};
}

/**
 * The kind of step the source's `migration.live` runs as: one whose limit covers the move's own
 * completion timeout (and a margin) under a policy; a long step's 3 hours for runs begun before
 * (no `migration-live-step-follows-policy` marker) and runs without a policy.
 */
export function liveStepOf(input: MigrateInstanceInput, tasks: MigrationTasks) {
  const convergence = carried(input);
  if (!convergence || !patched(PATCHES.migrationLiveStepFollowsPolicy.id)) return tasks.long;
  const limitS = liveStepLimitS(convergence, liveMovedMb(input.instance, input.volumes));
  return liveMoveStep(input.operation.timing, limitS);
}
