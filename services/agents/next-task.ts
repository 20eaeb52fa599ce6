import { isCredentialActive } from '../../db/repositories/accounts/active-credentials.js';
import { leaseNextTask, type OfferedTask } from '../../db/repositories/hypervisors/agent-task-leases.js';
import { ApiError } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import type { AgentActor } from './actor.js';

/**
 * Leases the next task of the agent's hypervisor to its credential for AGENT_TASK_LEASE_MS, or
 * returns undefined when none is waiting. The credential was checked when the request began,
 * maybe seconds ago in a long poll: a task is handed out only if the credential is still live at
 * the lease (one statement), and a credential found revoked meanwhile gets the 401. At a poll's
 * first look (`justAuthenticated`) the request's own check stands: looking again there was a
 * third of an idle poll's queries (bench:scale).
 */
export async function takeNextTask(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  agent: AgentActor,
  justAuthenticated = false,
): Promise<OfferedTask | undefined> {
  const { db } = deps;
  const leased = await leaseNextTask(
    db,
    agent.hypervisorId,
    agent.credentialId,
    deps.config.AGENT_TASK_LEASE_MS,
  );
  if (!leased && !justAuthenticated && !(await isCredentialActive(db, agent.credentialId))) {
    throw new ApiError('SVC-AUTH-401', { headers: { 'WWW-Authenticate': 'Bearer' } });
  }
  return leased;
}
