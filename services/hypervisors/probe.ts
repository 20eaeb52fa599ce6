import { randomUUID } from 'node:crypto';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { probeHypervisorWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { apiErrorOfWorkflow } from '../workflow-failures.js';
import { startWorkflow, stepTiming } from '../workflow-starts.js';

/** Long enough for a healthy agent; a silent one fails the probe instead of holding the request. */
export const PROBE_TIMEOUT_MS = 15_000;

/** Sends the hypervisor's agent a task that changes nothing and waits for its answer. */
export async function probeHypervisor(
  deps: ServiceDeps,
  hypervisorId: string,
): Promise<{ hypervisor_uuid: string; round_trip_ms: number; instances: number }> {
  const hypervisor = await findHypervisor(deps.db, hypervisorId);
  if (!hypervisor) throw notFound();
  let handle: Awaited<ReturnType<typeof startWorkflow>>;
  try {
    handle = await startWorkflow(deps, {
      type: 'probeHypervisor',
      workflowId: probeHypervisorWorkflowId(hypervisor.id, randomUUID()),
      input: { hypervisorId: hypervisor.id, timing: stepTiming(deps.config) },
      searchAttributes: { hypervisor: hypervisor.id },
      correlationId: null,
      executionTimeoutMs: PROBE_TIMEOUT_MS,
    });
  } catch (error) {
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  try {
    const result = (await handle.result()) as { round_trip_ms: number; instances: number };
    return { hypervisor_uuid: hypervisor.id, ...result };
  } catch (error) {
    throw apiErrorOfWorkflow(
      error,
      () => new ApiError('SVC-HV-409', { detail: 'The hypervisor’s agent did not answer the probe.' }),
    );
  }
}
