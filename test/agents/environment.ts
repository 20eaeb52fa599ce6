import { randomUUID } from 'node:crypto';
import type { ApiServer } from '../../api/server.js';
import { startProvisioning } from '../../api/workflow-starts.js';
import { createCredential } from '../../db/repositories/credentials.js';
import { findHypervisor } from '../../db/repositories/hypervisors.js';
import type { Config } from '../../platform/config.js';
import { type AgentProcess, eventually, startAgentProcess } from '../agent-process.js';
import { seed, startTestServer, startTestWorker, type TestWorker } from '../harness.js';

/** Timeouts short enough that failure paths finish in seconds. */
export const FAST_AGENT_TIMING = {
  AGENT_TASK_HEARTBEAT_TIMEOUT_MS: '3000',
  AGENT_TASK_LEASE_MS: '2000',
  AGENT_POLL_MAX_WAIT_MS: '2000',
} as const;

/**
 * A listening API, a worker on its own task queue, a customer with a client key, and hypervisors
 * whose real agent processes enroll through the Agent API.
 */
export async function startAgentEnvironment(overrides: Partial<Record<keyof Config, string>> = {}) {
  const server: ApiServer & { config: Config } = await startTestServer({
    ...FAST_AGENT_TIMING,
    ...overrides,
  });
  const worker: TestWorker = await startTestWorker(server.config);
  const db = server.deps.db;
  const owner = await seed.user(db);
  const clientKey = await seed.key(db, owner.id, 'client');
  const agents: AgentProcess[] = [];

  return {
    server,
    db,
    ownerId: owner.id,
    clientKey,
    temporal: server.deps.temporal,

    /** A hypervisor, enrolled by a real agent process started with `env`. */
    async hypervisorWithAgent(env: Record<string, string> = {}) {
      const hypervisor = await seed.hypervisor(db);
      const token = await createCredential(db, {
        type: 'enrollment',
        hypervisorId: hypervisor.id,
        expiresAt: new Date(Date.now() + 60_000),
      });
      const agent = startAgentProcess({
        AGENT_PANEL_URL: server.url,
        AGENT_ENROLLMENT_TOKEN: token.token,
        AGENT_SIM_LATENCY_MS: '{"default":0}',
        ...env,
      });
      agents.push(agent);
      await eventually(
        async () => (await findHypervisor(db, hypervisor.id))?.status === 'online',
        30_000,
        'enrollment',
      ).catch((error: Error) => {
        throw new Error(`${error.message}; agent output:\n${agent.output.join('')}`);
      });
      return { hypervisor, agent };
    },

    /** An instance of the customer, created on the hypervisor through the provisioning workflow. */
    async provisionedInstance(hypervisor: { id: string; location_id: string }) {
      const instance = await seed.instance(db, {
        userId: owner.id,
        locationId: hypervisor.location_id,
        hypervisorId: hypervisor.id,
        status: 'provisioning',
      });
      const handle = await startProvisioning(
        server.deps.temporal,
        server.config,
        instance,
        'debian-12',
        null,
      );
      await handle.result();
      return instance;
    },

    async power(instanceId: string, action: string) {
      return fetch(`${server.url}/api/client/cloud/${instanceId}/power`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${clientKey}`,
          'Content-Type': 'application/json',
          'X-Request-Id': randomUUID(),
        },
        body: JSON.stringify({ action }),
      });
    },

    async close() {
      await Promise.all(agents.map((a) => a.stop()));
      await worker.stop();
      await server.close();
    },
  };
}

export type AgentEnvironment = Awaited<ReturnType<typeof startAgentEnvironment>>;
