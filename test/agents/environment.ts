import { randomUUID } from 'node:crypto';
import type { ApiServer } from '../../api/server.js';
import { createCredential } from '../../db/repositories/credentials.js';
import { findHypervisor } from '../../db/repositories/hypervisors.js';
import { listOperationsOfInstance } from '../../db/repositories/instance-operations.js';
import type { Config } from '../../platform/config.js';
import { provisionInstance } from '../../services/instances/provision.js';
import { eventually, startAgentProcess } from '../agent-process.js';
import { seed, startTestServer, startTestWorker, type TestWorker } from '../harness.js';
import { startInProcessAgent } from '../in-process-agent.js';

/** Where a test's hypervisor stands and how big it is (default: a location of its own, 32 cores). */
export interface HypervisorPlace {
  readonly locationId?: string;
  readonly cpuCores?: number;
}

/** Timeouts short enough that failure paths finish in seconds. */
export const FAST_AGENT_TIMING = {
  AGENT_TASK_HEARTBEAT_TIMEOUT_MS: '3000',
  AGENT_TASK_LEASE_MS: '2000',
  AGENT_POLL_MAX_WAIT_MS: '2000',
} as const;

/**
 * A listening API, a worker on its own task queue, a customer with a client key, and hypervisors
 * whose agents enroll through the Agent API: the real `Agent` inside the test process, or a real
 * agent process where a test needs one (a crash, a stopped process, an exit code).
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
  const agents: { stop(): Promise<void> }[] = [];

  /** A new hypervisor whose agent, launched by `start` with an enrollment token, brings it online. */
  async function enrolled<A extends { output: string[]; stop(): Promise<void> }>(
    start: (panelEnv: Record<string, string>) => A,
    place: HypervisorPlace = {},
  ) {
    const hypervisor = await seed.hypervisor(db, place.locationId, place);
    const token = await createCredential(db, {
      type: 'enrollment',
      hypervisorId: hypervisor.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const agent = start({
      AGENT_PANEL_URL: server.url,
      AGENT_ENROLLMENT_TOKEN: token.token,
      AGENT_SIM_LATENCY_MS: '{"default":0}',
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
  }

  return {
    server,
    db,
    ownerId: owner.id,
    clientKey,
    temporal: server.deps.temporal,

    /** A hypervisor, enrolled by the agent running in this process, configured with `env`. */
    hypervisorWithAgent(env: Record<string, string> = {}, place: HypervisorPlace = {}) {
      return enrolled((panelEnv) => startInProcessAgent({ ...panelEnv, ...env }), place);
    },

    /** A hypervisor, enrolled by a real agent process started with `env`. */
    hypervisorWithAgentProcess(env: Record<string, string> = {}) {
      return enrolled((panelEnv) => startAgentProcess({ ...panelEnv, ...env }));
    },

    /** An instance of the customer, created on the hypervisor through the provisioning workflow. */
    async provisionedInstance(hypervisor: { id: string; location_id: string }) {
      const instance = await seed.instance(db, {
        userId: owner.id,
        locationId: hypervisor.location_id,
        hypervisorId: hypervisor.id,
        status: 'provisioning',
      });
      const begun = await provisionInstance(
        server.deps,
        { type: 'system', name: 'test' },
        instance,
        'debian-12',
        null,
      );
      await server.deps.temporal.workflow.getHandle(begun.workflowId).result();
      return instance;
    },

    /** The instance's newest operation (its workflow id finds its run and its agent tasks). */
    async latestOperation(instanceId: string) {
      const [latest] = await listOperationsOfInstance(db, instanceId, 1);
      if (!latest) throw new Error(`instance ${instanceId} has no operation`);
      return latest;
    },

    /** Waits for the instance's newest operation's workflow to end; its result, or its failure. */
    async operationResult(instanceId: string) {
      const [latest] = await listOperationsOfInstance(db, instanceId, 1);
      if (!latest) throw new Error(`instance ${instanceId} has no operation`);
      return server.deps.temporal.workflow.getHandle(latest.workflow_id).result();
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

    /** Takes the environment's worker away (as if its process died); `close` copes. */
    stopWorker: () => worker.stop(),

    async close() {
      await Promise.all(agents.map((a) => a.stop()));
      await worker.stop();
      await server.close();
    },
  };
}

export type AgentEnvironment = Awaited<ReturnType<typeof startAgentEnvironment>>;
