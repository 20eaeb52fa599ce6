import { recordHeartbeat } from '../../db/repositories/hypervisors.js';
import type { HypervisorStatus } from '../../domain/hypervisors.js';
import type { ServiceDeps } from '../context.js';
import type { AgentActor } from './actor.js';

export interface Heartbeat {
  readonly agentVersion: string;
  readonly capabilities: readonly string[];
  readonly free: { readonly cpuCores: number; readonly memoryMb: number; readonly diskMb: number };
}

/**
 * Records that the agent is alive, with what it reports; answers with what the panel holds of its
 * hypervisor. A hypervisor whose row is gone answers `revoked`, so its agent stops.
 */
export async function acceptHeartbeat(
  deps: Pick<ServiceDeps, 'db'>,
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
  return { status: state?.status ?? 'revoked', maintenance: state?.maintenance ?? false };
}
