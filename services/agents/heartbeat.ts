import { recordHeartbeat } from '../../db/repositories/hypervisors/hypervisors.js';
import type { HypervisorStatus } from '../../domain/hypervisors.js';
import type { ServiceDeps } from '../context.js';
import { catchUpImages } from '../images/catch-up.js';
import type { AgentActor } from './actor.js';

export interface Heartbeat {
  readonly agentVersion: string;
  readonly capabilities: readonly string[];
  readonly free: { readonly cpuCores: number; readonly memoryMb: number; readonly diskMb: number };
}

/**
 * Records that the agent is alive, with what it reports; answers with what the panel holds of its
 * hypervisor. A hypervisor whose row is gone answers `revoked`, so its agent stops. One that this
 * heartbeat brings back online fetches the image versions it lacks and removes the deleted ones'
 * copies it holds (after the heartbeat's commit).
 */
export async function acceptHeartbeat(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>,
  agent: AgentActor,
  heartbeat: Heartbeat,
): Promise<{ status: HypervisorStatus; maintenance: boolean }> {
  const state = await recordHeartbeat(deps.db, agent.hypervisorId, {
    agentVersion: heartbeat.agentVersion,
    capabilities: [...new Set(heartbeat.capabilities)],
    freeCpuCores: heartbeat.free.cpuCores,
    freeMemoryMb: heartbeat.free.memoryMb,
    freeDiskMb: heartbeat.free.diskMb,
  });
  if (state?.status === 'online' && state.previous_status !== 'online')
    await catchUpImages(deps, agent.hypervisorId).catch((error: unknown) =>
      deps.logger.warn('image catch-up failed', { hypervisor_id: agent.hypervisorId, error: String(error) }),
    );
  return { status: state?.status ?? 'revoked', maintenance: state?.maintenance ?? false };
}
