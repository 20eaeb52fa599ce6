import { randomUUID } from 'node:crypto';
import { FAST_IMAGE } from '../../agent/drivers/qemu/availability.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { listOperationsOfInstance } from '../../db/repositories/instances/instance-operation-reads.js';
import type { AppDeps } from '../../http/context.js';
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/logger.js';
import { buildApp } from '../../server/app.js';
import { createAppDeps, startApiServer } from '../../server/start.js';
import { provisionInstance } from '../../services/instances/provision.js';
import { startInProcessAgent } from './agents/in-process.js';
import { startAgentProcess } from './agents/process.js';
import { checkedApp, serverContract } from './checked-api.js';
import { type ConfigOverrides, testConfig, testLogger } from './config.js';
import { eventually } from './eventually.js';
import { callWith, type Reply } from './http.js';
import { seed } from './seed.js';
import { startTestWorker, type TestWorker } from './worker.js';

/**
 * The one way a test builds the plane: the API (in process, or listening), a worker if it runs
 * workflows, the parties that call it (`client`, `stranger`, `admin`, `agent()`) and `call()`.
 * Everything runs on the run's real PostgreSQL and Temporal dev server (global-setup.ts).
 */
export interface StackOptions {
  readonly config?: ConfigOverrides;
  /** A listening server (sockets, `fetch`, agents); otherwise requests go through `app.request`. */
  readonly listen?: boolean;
  /** A worker on the stack's task queue, so that workflows run. */
  readonly worker?: boolean;
  /** Hypervisors with agents: implies `listen` and `worker`, with agent timeouts of seconds. */
  readonly agents?: boolean;
  /** The API's logger, to read what it logs (default: the test logger at LOG_LEVEL). */
  readonly logger?: Logger;
}

/** Who calls the API: a user (or a hypervisor, for the agent) and its credential. */
export interface Party {
  readonly id: string;
  readonly key: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
}

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

export async function startStack(options: StackOptions = {}) {
  const listen = options.listen ?? options.agents ?? false;
  const config: Config = testConfig({ ...(options.agents ? FAST_AGENT_TIMING : {}), ...options.config });
  const logger = options.logger ?? testLogger(config);
  const api = listen ? await listeningApi(config, logger) : await inProcessApi(config, logger);
  const { deps } = api;
  const db = deps.db;
  const worker: TestWorker | undefined =
    (options.worker ?? options.agents) ? await startTestWorker(config) : undefined;
  const agents: { stop(): Promise<void> }[] = [];

  const call = (
    as: Party | string | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) =>
    callWith(api.send, typeof as === 'string' || as === null ? as : as.key, method, path, body, {
      'X-Request-Id': randomUUID(),
      ...headers,
    });
  const party = (id: string, key: string): Party => ({
    id,
    key,
    call: (method, path, body, headers) => call(key, method, path, body, headers),
  });
  const user = async (type: 'client' | 'application') => {
    const created = await seed.user(db, { admin: type === 'application' });
    return party(created.id, await seed.key(db, created.id, type));
  };
  const [client, stranger, admin, location] = await Promise.all([
    user('client'),
    user('client'),
    user('application'),
    seed.location(db),
  ]);

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
      AGENT_PANEL_URL: api.url(),
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

  async function newestOperation(instanceId: string) {
    const [latest] = await listOperationsOfInstance(db, instanceId, 1);
    if (!latest) throw new Error(`instance ${instanceId} has no operation`);
    return latest;
  }

  return {
    config,
    deps,
    db,
    temporal: deps.temporal,
    /** The API in process; every answer it gives is checked against its OpenAPI document. */
    app: checkedApp(api.app),
    /** The listening server's base URL (a stack started with `listen` or `agents`). */
    get url(): string {
      return api.url();
    },
    /** The listening API's /metrics (a stack started with `listen` or `agents`). */
    get metricsUrl(): string {
      return api.metricsUrl();
    },
    /** The customer whose resources a test makes. */
    client,
    /** Another customer, who must see none of the client's resources (the standard 404). */
    stranger,
    /** An administrator with an application key. */
    admin,
    /** A location of the stack's own. */
    locationId: location.id,
    /** One request as `as` (a party, a bearer token, or no credential); a request id is added. */
    call,

    /** A hypervisor (in `place`) and its agent's credential, to call the Agent API as that agent. */
    async agent(
      place: HypervisorPlace = {},
    ): Promise<Party & { hypervisor: { id: string; location_id: string } }> {
      const hypervisor = await seed.hypervisor(db, place.locationId, place);
      const { token } = await createCredential(db, { type: 'agent', hypervisorId: hypervisor.id });
      return { ...party(hypervisor.id, token), hypervisor };
    },

    /** A hypervisor, enrolled by the real agent running in this process, configured with `env`. */
    hypervisorWithAgent(env: Record<string, string> = {}, place: HypervisorPlace = {}) {
      return enrolled((panelEnv) => startInProcessAgent({ ...panelEnv, ...env }), place);
    },

    /** A hypervisor, enrolled by a real agent process started with `env`. */
    hypervisorWithAgentProcess(env: Record<string, string> = {}, place: HypervisorPlace = {}) {
      return enrolled((panelEnv) => startAgentProcess({ ...panelEnv, ...env }), place);
    },

    /** An instance of the client, created on the hypervisor through the provisioning workflow. */
    async provisionedInstance(hypervisor: { id: string; location_id: string }) {
      const instance = await seed.instance(db, {
        userId: client.id,
        locationId: hypervisor.location_id,
        hypervisorId: hypervisor.id,
        status: 'provisioning',
      });
      const begun = await provisionInstance(
        deps,
        { type: 'system', name: 'test' },
        instance,
        FAST_IMAGE,
        null,
      );
      await deps.temporal.workflow.getHandle(begun.workflowId).result();
      return instance;
    },

    /** The instance's newest operation (its workflow id finds its run and its agent tasks). */
    latestOperation: newestOperation,

    /** Waits for the instance's newest operation's workflow to end; its result, or its failure. */
    async operationResult(instanceId: string) {
      const latest = await newestOperation(instanceId);
      return deps.temporal.workflow.getHandle(latest.workflow_id).result();
    },

    /** A power action by the client, through the Client API. */
    power(instanceId: string, action: string) {
      return call(client, 'POST', `/api/client/cloud/${instanceId}/power`, { action });
    },

    /** The stack's Temporal worker, when it has one (`worker` or `agents`). */
    temporalWorker: worker?.worker,

    /** Takes the stack's worker away (as if its process died); `close` copes. */
    async stopWorker() {
      await worker?.stop();
    },

    async close() {
      await Promise.all(agents.map((a) => a.stop()));
      await worker?.stop();
      await api.close();
    },
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

interface Api {
  readonly deps: AppDeps;
  readonly app: ReturnType<typeof buildApp>;
  send(path: string, init: RequestInit): Promise<Response> | Response;
  url(): string;
  metricsUrl(): string;
  close(): Promise<void>;
}

async function inProcessApi(config: Config, logger: Logger): Promise<Api> {
  const deps = await createAppDeps(config, logger);
  const app = buildApp(deps);
  return {
    deps,
    app,
    send: (path, init) => app.request(path, init),
    url: () => {
      throw new Error('this stack does not listen: start it with { listen: true }');
    },
    metricsUrl: () => {
      throw new Error('this stack does not listen: start it with { listen: true }');
    },
    close: () => deps.close(),
  };
}

/** A listening API whose every answer is checked against its document (checked-api.ts). */
async function listeningApi(config: Config, logger: Logger): Promise<Api> {
  const contract = serverContract();
  const server = await startApiServer(config, logger, contract.around);
  return {
    deps: server.deps,
    app: buildApp(server.deps),
    send: (path, init) => fetch(`${server.url}${path}`, init),
    url: () => server.url,
    metricsUrl: () => server.metricsUrl,
    async close() {
      await server.close();
      contract.assertKept();
    },
  };
}
