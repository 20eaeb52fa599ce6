import { randomUUID } from 'node:crypto';
import { endUnstartedEvacuation, recordEvacuation } from '../../db/records/evacuations.js';
import { type Actor, actorName } from '../../domain/actors.js';
import { ApiError } from '../../domain/errors.js';
import type { EvacuateHypervisorInput } from '../../domain/evacuations/run-input.js';
import type { EvacuationPolicy } from '../../domain/evacuations/states.js';
import { WORKFLOW_UNAVAILABLE } from '../../domain/instances/failures.js';
import {
  type ConvergencePolicy,
  type ConvergenceRequest,
  policyInForce,
} from '../../domain/migrations/convergence.js';
import { evacuationWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { convergenceDefaults } from '../moves/settings.js';
import { startWorkflow } from '../workflow-starts.js';
import { evacuationPlan } from './plan.js';

export interface EvacuationRequest {
  readonly hypervisorId: string;
  readonly policy: Partial<EvacuationPolicy> & Pick<EvacuationPolicy, 'mode'>;
  readonly reason?: string | undefined;
  /** The convergence figures its migrations take; the rest are the configured defaults'. */
  readonly convergence?: ConvergenceRequest | undefined;
  readonly correlationId: string | null;
}

/** The request's policy, what it leaves out taken from configuration. */
export const policyFor = (
  config: ServiceDeps['config'],
  policy: EvacuationRequest['policy'],
): EvacuationPolicy => ({
  mode: policy.mode,
  maxParallel: policy.maxParallel ?? config.EVACUATION_MAX_PARALLEL,
  maxParallelPerTarget: policy.maxParallelPerTarget ?? config.EVACUATION_MAX_PARALLEL_PER_TARGET,
  onFailure: policy.onFailure ?? 'skip',
  maxAttempts: policy.maxAttempts ?? config.EVACUATION_MAX_ATTEMPTS,
});

/**
 * Starts draining a hypervisor: in one transaction the evacuation with its policy, its instances
 * in the plan's order (those that can move, largest first, then those that cannot, which the run
 * records as blocked) and the node put in maintenance, so that nothing new lands on it; a second
 * evacuation of the node is refused (EVACUATION_RUNNING). After the commit, its run is started; a
 * start refused puts everything back (the node's maintenance as it was) and answers 503.
 */
export async function startEvacuation(
  deps: ServiceDeps,
  actor: Actor,
  request: EvacuationRequest,
): Promise<{ evacuationId: string }> {
  const policy = policyFor(deps.config, request.policy);
  const plan = await evacuationPlan(deps, { hypervisorId: request.hypervisorId, mode: policy.mode });
  const order = [...plan.moves.map((m) => m.instance.id), ...plan.unmovable.map((u) => u.instance.id)];
  // Fixed when the drain starts: every move of it takes the same policy, whatever the settings later.
  const convergence = policyInForce(convergenceDefaults(deps.config), request.convergence);
  return launchDrain(deps, actor, { ...request, policy, order, convergence });
}

/**
 * A drain recorded (recordEvacuation: the node's, or one of its backends') and its run started; a
 * start refused puts everything back and answers 503.
 */
export async function launchDrain(
  deps: ServiceDeps,
  actor: Actor,
  drain: {
    readonly hypervisorId: string;
    readonly policy: EvacuationPolicy;
    readonly order: readonly string[];
    readonly backends?: { readonly from: string; readonly to: string };
    readonly convergence?: ConvergencePolicy;
    readonly reason?: string | undefined;
    readonly correlationId: string | null;
  },
): Promise<{ evacuationId: string }> {
  const evacuationId = randomUUID();
  const workflowId = evacuationWorkflowId(evacuationId);
  const recorded = await recordEvacuation(
    deps.db,
    {
      id: evacuationId,
      hypervisorId: drain.hypervisorId,
      policy: drain.policy,
      workflowId,
      requestedBy: actorName(actor),
      reason: drain.reason ?? null,
      ...(drain.backends ? { backends: drain.backends } : {}),
      ...(drain.convergence ? { convergence: drain.convergence } : {}),
    },
    drain.order,
  );
  if (!recorded) throw new ApiError('EVACUATION_RUNNING');
  await startDrainRun(deps, {
    evacuationId,
    hypervisorId: drain.hypervisorId,
    policy: drain.policy,
    operation: drain.backends ? 'drain_backend' : 'evacuate',
    correlationId: drain.correlationId,
  });
  return { evacuationId };
}

/**
 * The run of a recorded evacuation, of any kind, started; a start refused ends the evacuation
 * unstarted (endUnstartedEvacuation) and answers 503.
 */
export async function startDrainRun(
  deps: ServiceDeps,
  run: {
    readonly evacuationId: string;
    readonly hypervisorId: string;
    readonly policy: EvacuationPolicy;
    readonly operation: 'evacuate' | 'drain_backend' | 'restore';
    readonly correlationId: string | null;
  },
): Promise<void> {
  const input: EvacuateHypervisorInput = {
    evacuationId: run.evacuationId,
    hypervisorId: run.hypervisorId,
    policy: run.policy,
    checkEveryMs: deps.config.EVACUATION_CHECK_EVERY_MS,
    movesPerRun: deps.config.EVACUATION_MOVES_PER_RUN,
  };
  try {
    await startWorkflow(deps, {
      type: 'evacuateHypervisor',
      workflowId: evacuationWorkflowId(run.evacuationId),
      input,
      searchAttributes: { hypervisor: run.hypervisorId, operation: run.operation },
      correlationId: run.correlationId,
    });
  } catch (error) {
    await endUnstartedEvacuation(deps.db, run.evacuationId, WORKFLOW_UNAVAILABLE);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
}
